package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadDumpsTest {
    /** The shape of JDK 25's {@code Thread.print}, cut down: a carrier with a virtual thread mounted, and another. */
    static final String PRINT = """
            2026-11-27 18:40:00
            Full thread dump OpenJDK 64-Bit Server VM (25.0.3+9-LTS mixed mode, sharing):

            "main" #3 [17830] prio=5 os_prio=0 cpu=120.00ms elapsed=0.70s tid=0x00007f0558028000 nid=17830 waiting on condition  [0x00007f055e9fe000]
               java.lang.Thread.State: TIMED_WAITING (sleeping)
            \tat java.lang.Thread.sleep0(java.base@25.0.3/Native Method)

            "ForkJoinPool-1-worker-1" #23 [17849] daemon prio=5 os_prio=0 cpu=56.33ms elapsed=0.68s tid=0x00007f055810a4b0  [0x00007f05381fd000]
               Carrying virtual thread #22
            \tat jdk.internal.vm.Continuation.run(java.base@25.0.3/Continuation.java:251)
            \tat java.lang.VirtualThread.runContinuation(java.base@25.0.3/VirtualThread.java:297)
            \tat java.util.concurrent.ForkJoinWorkerThread.run(java.base@25.0.3/ForkJoinWorkerThread.java:187)
               Mounted virtual thread #22
            \tat java.lang.invoke.LambdaForm$MH/0x0000000060048000.invokeExact_MT(java.base@25.0.3/LambdaForm$MH)
            \tat jdk.internal.foreign.abi.DowncallStub/0x0000000060049000.invoke(java.base@25.0.3/Native Method)
            \tat dev.blocklab.misuse.NativeBlocking.lambda$run$0(NativeBlocking.java:41)
            \tat not a frame at all
            \t- locked <0x00000000ffe00000> (a java.lang.Object)
            \tat dev.blocklab.misuse.NativeBlocking$$Lambda/0x0000000060040210.call(Unknown Source)
            \tat java.lang.VirtualThread.run(java.base@25.0.3/VirtualThread.java:460)

            "ForkJoinPool-1-worker-2" #24 [17850] daemon prio=5 os_prio=0 cpu=10.00ms elapsed=0.68s tid=0x00007f055810b000 nid=17850 waiting on condition  [0x00007f05380fd000]
               java.lang.Thread.State: WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@25.0.3/Native Method)
            \tat java.util.concurrent.ForkJoinPool.awaitWork(java.base@25.0.3/ForkJoinPool.java:2124)
            """;

    @Test
    void mountedOn_readsTheFramesUnderTheCarrier_skippingLockLinesAndHiddenClassSuffixes() {
        assertThat(ThreadDumps.mountedOn(PRINT, 23)).hasValueSatisfying(m -> {
            assertThat(m.name()).isEqualTo("virtual thread #22");
            assertThat(m.stack()).containsExactly(
                    new Frame("java.lang.invoke.LambdaForm$MH", "invokeExact_MT", -1),
                    new Frame("jdk.internal.foreign.abi.DowncallStub", "invoke", -1),
                    new Frame("dev.blocklab.misuse.NativeBlocking", "lambda$run$0", 41),
                    new Frame("dev.blocklab.misuse.NativeBlocking$$Lambda", "call", -1),
                    new Frame("java.lang.VirtualThread", "run", 460));
        });
        assertThat(ThreadDumps.mountedOn(PRINT, 24)).as("a carrier with nothing mounted").isEmpty();
        assertThat(ThreadDumps.mountedOn(PRINT, 3)).as("not a carrier").isEmpty();
        assertThat(ThreadDumps.mountedOn(PRINT, 22)).as("the virtual thread's own id is not a carrier's").isEmpty();
        assertThat(ThreadDumps.mountedOn(PRINT, 2)).as("an id that another begins with").isEmpty();
        assertThat(ThreadDumps.mountedOn(PRINT.replace("\n", "\r\n"), 23)).as("CRLF line ends")
                .hasValueSatisfying(m -> assertThat(m.stack()).hasSize(5));
        assertThat(ThreadDumps.mountedOn(PRINT.replaceAll("(?m)^\tat .*(NativeBlocking|VirtualThread|LambdaForm|DowncallStub).*$", "x"), 23))
                .as("a Mounted section without frames (caught mounting) is not a find").isEmpty();
    }

    @Test
    void mountedOn_findsAVirtualThreadSpinningOnItsCarrier_inThisJvm() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(1);
        Thread spinner = Thread.ofVirtual().start(() -> spinOnCarrier(stop, spinning));
        try {
            assertThat(spinning.await(10, TimeUnit.SECONDS)).isTrue();
            Optional<ThreadDumps.Mounted> found = Optional.empty();
            for (int attempt = 0; attempt < 50 && found.isEmpty(); attempt++)   // the scheduler may move it between reads
                for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
                    Optional<ThreadDumps.Mounted> m = ThreadDumps.mountedOn(id);
                    if (m.isPresent() && m.get().stack().stream().anyMatch(f -> f.method().equals("spinOnCarrier"))) {
                        found = m;
                        break;
                    }
                }
            assertThat(found).hasValueSatisfying(m -> assertThat(m.name()).isEqualTo("virtual thread #" + spinner.threadId()));
        } finally {
            stop.set(true);
            spinner.join(10_000);
        }
    }

    private static void spinOnCarrier(AtomicBoolean stop, CountDownLatch spinning) {
        spinning.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);   // bounded: stops by itself
        while (!stop.get() && System.nanoTime() < deadline) Thread.onSpinWait();
    }
}
