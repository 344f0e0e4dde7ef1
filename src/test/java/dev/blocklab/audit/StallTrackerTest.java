package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The watchdog's state machine over hand-made samples, on a fake clock. */
class StallTrackerTest {
    static final long MS = 1_000_000;
    static final List<Frame> STUCK = List.of(new Frame("sun.nio.ch.Net", "poll", -1), new Frame("com.example.Handler", "read", 12));
    static final List<Frame> BUSY = List.of(new Frame("com.example.Handler", "compute", 20));
    static final List<Frame> IDLE = List.of(new Frame("sun.nio.ch.EPoll", "wait", -1), new Frame("io.netty.channel.nio.NioIoHandler", "select", 500));
    static final List<Frame> MOUNTED = List.of(new Frame("jdk.internal.vm.Continuation", "run", 251), new Frame("java.lang.VirtualThread", "runContinuation", 297));
    static final String LOOP = "vert.x-eventloop-thread-0";

    static StallTracker.Sample sample(long id, String name, long atMs, long cpuMs, List<Frame> stack) {
        return new StallTracker.Sample(id, name, atMs * MS, Instant.EPOCH.plusMillis(atMs), cpuMs * MS, stack);
    }

    @Test
    void sameStackWithoutCpu_isOneStallWithItsWholeDuration() {
        StallTracker t = new StallTracker(200 * MS);
        for (long at = 0; at <= 300; at += 20) t.observe(sample(1, LOOP, at, 5, STUCK));
        t.observe(sample(1, LOOP, 320, 5, IDLE));
        List<Blocking> stalls = t.drain();
        assertThat(stalls).singleElement().satisfies(b -> {
            assertThat(b.event()).isEqualTo(Blocking.WATCHDOG);
            assertThat(b.durationNanos()).isEqualTo(300 * MS);
            assertThat(b.start()).isEqualTo(Instant.EPOCH);
            assertThat(b.stack()).isEqualTo(STUCK);
            assertThat(Classifier.rule(b)).contains(Rule.STALLED_EVENT_LOOP);
        });
        assertThat(t.finish()).isEmpty();
    }

    @Test
    void shorterThanTheThreshold_orComputing_orIdle_orAnotherKind_isNoStall() {
        StallTracker t = new StallTracker(200 * MS);
        for (long at = 0; at <= 180; at += 20) t.observe(sample(1, LOOP, at, 0, STUCK));
        t.observe(sample(1, LOOP, 200, 0, BUSY));
        for (long at = 0; at <= 400; at += 20) t.observe(sample(2, "vert.x-eventloop-thread-1", at, at / 2, BUSY));
        for (long at = 0; at <= 400; at += 20) t.observe(sample(3, "vert.x-eventloop-thread-2", at, 0, IDLE));
        for (long at = 0; at <= 400; at += 20) t.observe(sample(4, "pool-1-thread-1", at, 0, STUCK));
        assertThat(t.finish()).isEmpty();
    }

    @Test
    void garbageCollectionPauses_doNotCountTowardsAStall() {
        StallTracker t = new StallTracker(200 * MS);
        for (long at = 0; at <= 300; at += 20)   // 300 ms without progress, 150 ms of it in GC
            t.observe(new StallTracker.Sample(1, LOOP, at * MS, Instant.EPOCH.plusMillis(at), 0, STUCK, Math.min(at, 150) * MS));
        assertThat(t.finish()).isEmpty();
    }

    @Test
    void carrierStall_asksOnceForTheMountedStackAndReportsIt() {
        StallTracker t = new StallTracker(100 * MS);
        String carrier = "ForkJoinPool-1-worker-1";
        assertThat(t.observe(sample(7, carrier, 0, 3, MOUNTED))).isFalse();
        assertThat(t.observe(sample(7, carrier, 60, 3, MOUNTED))).isFalse();
        assertThat(t.observe(sample(7, carrier, 120, 3, MOUNTED))).as("now a stall: resolve").isTrue();
        List<Frame> virtualStack = List.of(new Frame("com.example.Native", "call", 41));
        t.resolve(7, "worker-vt", virtualStack, false);
        assertThat(t.observe(sample(7, carrier, 180, 3, MOUNTED))).as("resolved: no more lookups").isFalse();
        List<Blocking> stalls = t.finish();
        assertThat(stalls).singleElement().satisfies(b -> {
            assertThat(b.threadName()).isEqualTo("worker-vt");
            assertThat(b.durationNanos()).isEqualTo(180 * MS);
            assertThat(Classifier.culprit(b.stack())).contains(virtualStack.getFirst());
            assertThat(Classifier.rule(b)).contains(Rule.STALLED_CARRIER);
        });
    }

    @Test
    void carrierStall_unresolvedIsRetriedAFewTimes_andADroppedOneIsNotReported() {
        StallTracker t = new StallTracker(40 * MS);
        String carrier = "ForkJoinPool-1-worker-2";
        int lookups = 0;
        for (long at = 0; at <= 400; at += 20) if (t.observe(sample(8, carrier, at, 0, MOUNTED))) lookups++;
        assertThat(lookups).isEqualTo(StallTracker.MAX_LOOKUPS);
        assertThat(t.finish()).singleElement().satisfies(b -> assertThat(b.stack()).isEqualTo(MOUNTED));

        StallTracker dropped = new StallTracker(40 * MS);
        for (long at = 0; at <= 100; at += 20)
            if (dropped.observe(sample(9, carrier, at, 0, MOUNTED))) dropped.resolve(9, "vt", List.of(new Frame("java.lang.VirtualThread", "parkOnCarrierThread", 830)), true);
        assertThat(dropped.finish()).as("a pinned park is JFR's to report").isEmpty();
    }
}
