package dev.blocklab.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The classification as pure functions over records: no JFR, no threads. */
class ClassifierTest {
    static final Frame SLEEP = new Frame("java.lang.Thread", "sleep", 601);
    static final Frame PARK = new Frame("jdk.internal.misc.Unsafe", "park", -1);
    static final Frame APP = new Frame("com.example.Handler", "handle", 42);
    static final Frame FJ_RUN = new Frame("java.util.concurrent.ForkJoinWorkerThread", "run", 191);

    static Blocking blocking(String event, String thread, boolean virtual, String group, Frame... stack) {
        return new Blocking(event, thread, virtual, group, Instant.EPOCH, 5_000_000, List.of(stack));
    }

    @ParameterizedTest
    @CsvSource({
            "vert.x-eventloop-thread-0, EVENT_LOOP",
            "vert.x-acceptor-thread-1, EVENT_LOOP",
            "multiThreadIoEventLoopGroup-2-1, EVENT_LOOP",
            "nioEventLoopGroup-3-4, EVENT_LOOP",
            "reactor-http-nio-2, EVENT_LOOP",
            "reactor-tcp-epoll-3, EVENT_LOOP",
            "parallel-3, EVENT_LOOP",
            "single-1, EVENT_LOOP",
            "RxComputationThreadPool-7, EVENT_LOOP",
            "RxSingleScheduler-1, EVENT_LOOP",
            "ForkJoinPool.commonPool-worker-5, COMMON_POOL",
            "ForkJoinPool-3-worker-2, FORK_JOIN",
            "boundedElastic-1, OTHER",
            "RxCachedThreadScheduler-1, OTHER",
            "vert.x-worker-thread-0, OTHER",
            "pool-1-thread-1, OTHER",
            "parallelism-1, OTHER",
            "main, OTHER"})
    void kind_byThreadName(String name, ThreadKind expected) {
        assertThat(Classifier.kind(name, false, "main", List.of())).isEqualTo(expected);
    }

    @Test
    void kind_virtualCarrierAndCustomNamedForkJoinWorker() {
        assertThat(Classifier.kind("", true, "VirtualThreads", List.of())).isEqualTo(ThreadKind.VIRTUAL);
        assertThat(Classifier.kind("ForkJoinPool-1-worker-1", false, "CarrierThreads", List.of())).isEqualTo(ThreadKind.CARRIER);
        assertThat(Classifier.kind("ForkJoinPool-1-worker-1", false, "", List.of(new Frame("java.lang.VirtualThread", "runContinuation", 297))))
                .as("a mounted carrier, seen by its stack").isEqualTo(ThreadKind.CARRIER);
        assertThat(Classifier.kind("play-2.5-3", false, "main", List.of(SLEEP, APP, FJ_RUN))).isEqualTo(ThreadKind.FORK_JOIN);
    }

    @Test
    void rule_blockingOnEachKind() {
        assertThat(Classifier.rule(blocking("jdk.ThreadSleep", "vert.x-eventloop-thread-0", false, "main", SLEEP, APP))).contains(Rule.BLOCKING_ON_EVENT_LOOP);
        assertThat(Classifier.rule(blocking("jdk.ThreadPark", "ForkJoinPool.commonPool-worker-1", false, "main", PARK, APP))).contains(Rule.BLOCKING_ON_COMMON_POOL);
        assertThat(Classifier.rule(blocking("jdk.ThreadSleep", "ForkJoinPool-2-worker-1", false, "main", SLEEP, APP))).contains(Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER);
        assertThat(Classifier.rule(blocking("jdk.ThreadSleep", "pool-1-thread-1", false, "main", SLEEP, APP))).isEmpty();
        assertThat(Classifier.rule(blocking("jdk.ThreadSleep", "", true, "VirtualThreads", SLEEP, APP))).as("a virtual thread may sleep").isEmpty();
        assertThat(Classifier.rule(blocking("jdk.VirtualThreadPinned", "", true, "VirtualThreads", APP))).contains(Rule.VIRTUAL_THREAD_PINNED);
    }

    @Test
    void rule_idleClassLoadingManagedAndTheRecorderItselfAreNotMisuse() {
        Frame awaitWork = new Frame("java.util.concurrent.ForkJoinPool", "awaitWork", 2100);
        Frame getTask = new Frame("java.util.concurrent.ThreadPoolExecutor", "getTask", 1070);
        Frame managed = new Frame("java.util.concurrent.ForkJoinPool", "managedBlock", 3900);
        Frame loading = new Frame("java.lang.ClassLoader", "loadClass", 490);
        Frame jfr = new Frame("jdk.jfr.internal.MetadataRepository", "register", 135);
        assertThat(Classifier.rule(blocking("jdk.ThreadPark", "ForkJoinPool.commonPool-worker-1", false, "main", PARK, awaitWork))).isEmpty();
        assertThat(Classifier.rule(blocking("jdk.ThreadPark", "parallel-1", false, "main", PARK, getTask))).isEmpty();
        assertThat(Classifier.rule(blocking("jdk.ThreadPark", "ForkJoinPool-2-worker-1", false, "main", PARK, managed, APP))).isEmpty();
        assertThat(Classifier.rule(blocking("jdk.ThreadPark", "ForkJoinPool.commonPool-worker-1", false, "main", PARK, managed, APP))).isEmpty();
        assertThat(Classifier.rule(blocking("jdk.FileRead", "vert.x-eventloop-thread-0", false, "main", loading, APP))).isEmpty();
        assertThat(Classifier.rule(blocking("jdk.JavaMonitorEnter", "vert.x-eventloop-thread-0", false, "main", jfr, APP))).isEmpty();
        Frame nettyWrite = new Frame("io.netty.channel.socket.nio.NioSocketChannel", "doWrite", 408);
        Frame nioWrite = new Frame("sun.nio.ch.SocketChannelImpl", "write", 600);
        assertThat(Classifier.rule(blocking("jdk.SocketWrite", "vert.x-eventloop-thread-0", false, "main", nioWrite, nettyWrite, APP)))
                .as("Netty's non-blocking channel").isEmpty();
        assertThat(Classifier.rule(blocking("jdk.SocketRead", "vert.x-eventloop-thread-0", false, "main", new Frame("java.net.Socket", "read", 1), APP)))
                .as("a blocking socket on the loop").contains(Rule.BLOCKING_ON_EVENT_LOOP);
        assertThat(Classifier.rule(blocking("jdk.JavaMonitorEnter", "vert.x-eventloop-thread-0", false, "main",
                new Frame("io.vertx.core.impl.future.FutureImpl", "completeInternal", 155)))).as("a framework's own lock").isEmpty();
        assertThat(Classifier.rule(blocking("jdk.JavaMonitorWait", "ForkJoinPool-2-worker-1", false, "main",
                new Frame("org.apache.pekko.actor.EmptyLocalActorRef", "publishSupressedDeadLetter", 723)))).as("a framework's own wait").isEmpty();
        assertThat(Classifier.rule(blocking("jdk.JavaMonitorWait", "ForkJoinPool-2-worker-1", false, "main", new Frame("java.lang.Object", "wait", 1), APP)))
                .as("a wait in the code").contains(Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER);
        assertThat(Classifier.rule(blocking("jdk.JavaMonitorEnter", "ForkJoinPool-2-worker-1", false, "main", APP)))
                .as("monitor contention on a fork-join worker").isEmpty();
        assertThat(Classifier.rule(blocking("jdk.JavaMonitorEnter", "vert.x-eventloop-thread-0", false, "main", APP)))
                .as("but not on an event loop").contains(Rule.BLOCKING_ON_EVENT_LOOP);
    }

    @Test
    void rule_watchdogStalls() {
        assertThat(Classifier.rule(blocking(Blocking.WATCHDOG, "vert.x-eventloop-thread-1", false, "", APP))).contains(Rule.STALLED_EVENT_LOOP);
        assertThat(Classifier.rule(blocking(Blocking.WATCHDOG, "ForkJoinPool-1-worker-2", false, "", APP,
                new Frame("java.lang.VirtualThread", "runContinuation", -1)))).contains(Rule.STALLED_CARRIER);
        assertThat(Classifier.rule(blocking(Blocking.WATCHDOG, "pool-1-thread-1", false, "", APP))).isEmpty();
    }

    @Test
    void culpritAndTopFrames_skipTheJdkAndTheFrameworks() {
        Frame vertx = new Frame("io.vertx.core.impl.ContextImpl", "dispatch", 10);
        List<Frame> stack = List.of(SLEEP, new Frame("java.lang.Thread", "sleepNanos", 509), APP, vertx);
        assertThat(Classifier.culprit(stack)).contains(APP);
        assertThat(Classifier.topFrames(stack, 5)).containsExactly(APP, vertx);
        assertThat(Classifier.culprit(List.of(SLEEP))).as("only library frames: the top one").contains(SLEEP);
        assertThat(Classifier.culprit(List.of())).isEmpty();
    }
}
