package dev.blocklab.recorder;

import dev.blocklab.result.ContextSwitches;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ProcessMetricsTest {

    @Test
    void snapshot_countsVoluntarySwitchesOfOtherThreads() throws Exception {
        assumeTrue(ProcessMetrics.hasGetrusage(), "getrusage is Linux-only here");
        ContextSwitches before = ProcessMetrics.snapshot().contextSwitches();
        Thread sleeper = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 50; i++) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sleeper.join();
        ContextSwitches delta = ProcessMetrics.snapshot().contextSwitches().minus(before);
        // each sleep of another thread blocks it once: /proc/self/status of the main thread would not see these
        assertThat(delta.voluntary()).isGreaterThanOrEqualTo(50);
    }

    @Test
    void snapshot_cpuAndAllocationGrowWithWork() {
        ProcessMetrics.Snapshot a = ProcessMetrics.snapshot();
        long sum = 0;
        for (int i = 0; i < 2_000; i++) sum += new byte[10_000].length;
        // spin until this thread has had 20 ms of CPU (by the JVM's own per-thread clock), however busy the machine:
        // the process's getrusage CPU must then have grown by at least that much
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime(), deadline = System.nanoTime() + 30_000_000_000L;
        while (threads.getCurrentThreadCpuTime() - cpuStart < 20_000_000L && System.nanoTime() < deadline)
            sum += System.nanoTime() & 1;
        ProcessMetrics.Snapshot b = ProcessMetrics.snapshot();
        assertThat(sum).isPositive();
        assertThat(b.cpuNanos() - a.cpuNanos()).isGreaterThan(10_000_000L);
        assertThat(b.allocatedBytes() - a.allocatedBytes()).isGreaterThan(10_000_000L);
    }

    @Test
    void threadCounts_seeANewPlatformThread() throws Exception {
        ProcessMetrics.resetPeakPlatformThreads();
        int before = ProcessMetrics.platformThreads();
        var latch = new java.util.concurrent.CountDownLatch(1);
        Thread t = Thread.ofPlatform().start(() -> {
            try { latch.await(); } catch (InterruptedException ignored) { }
        });
        assertThat(ProcessMetrics.peakPlatformThreads()).isGreaterThanOrEqualTo(before + 1);
        if (ProcessMetrics.osThreads() > 0) assertThat(ProcessMetrics.osThreads()).isGreaterThanOrEqualTo(before + 1);
        latch.countDown();
        t.join();
    }
}
