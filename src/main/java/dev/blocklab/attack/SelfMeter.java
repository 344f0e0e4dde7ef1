package dev.blocklab.attack;

import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.recorder.ProcessMetrics;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures the attacker itself over one window: the process's CPU time (getrusage), its event loops' CPU time
 * (per thread, from the JVM), what their lateness was made of ({@link LagCauses}) and the whole machine's busy
 * share ({@code /proc/stat}, Linux), against the wall time. {@link #start} at the measured schedule's start,
 * {@link #sendingEnded} when sending ends, {@link #measured} at the report. Not thread-safe: one thread calls it.
 */
final class SelfMeter {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Path PROC_STAT = Path.of("/proc/stat");

    private final Transport transport;
    private long startWall, startCpu, endWall, endCpu;
    private long[] startLoops, endLoops;
    private long[] startMachine, endMachine;
    private LagCauses startCauses;

    SelfMeter(Transport transport) {
        this.transport = transport;
    }

    void start() {
        transport.eventLoopLagNanos(); // drop what the warm-up left in the probe
        startCauses = transport.eventLoopLagCauses();
        startWall = System.nanoTime();
        startCpu = ProcessMetrics.snapshot().cpuNanos();
        startLoops = loopCpu();
        startMachine = machine();
    }

    void sendingEnded() {
        endWall = System.nanoTime();
        endCpu = ProcessMetrics.snapshot().cpuNanos();
        endLoops = loopCpu();
        endMachine = machine();
    }

    InstrumentHealth.Measured measured() {
        int cores = Runtime.getRuntime().availableProcessors();
        double wall = Math.max(1, endWall - startWall);
        double cpu = startCpu < 0 || endCpu < 0 ? Double.NaN : (endCpu - startCpu) / wall;
        double loopBusy = Double.NaN;
        for (int i = 0; i < startLoops.length; i++) {
            if (startLoops[i] < 0 || endLoops[i] < 0) continue;
            double share = Math.min(1, (endLoops[i] - startLoops[i]) / wall);
            loopBusy = Double.isNaN(loopBusy) ? share : Math.max(loopBusy, share);
        }
        double machine = Double.NaN;
        if (startMachine != null && endMachine != null) {
            long total = endMachine[0] - startMachine[0], idle = endMachine[1] - startMachine[1];
            if (total > 0) machine = (double) (total - idle) / total;
        }
        Histogram lag = transport.eventLoopLagNanos();
        double lag99 = lag == null || lag.getTotalCount() == 0 ? Double.NaN : lag.getValueAtPercentile(99) / 1e6;
        double lagMax = lag == null || lag.getTotalCount() == 0 ? Double.NaN : lag.getMaxValue() / 1e6;
        // the lag's causes over the same window as its histogram: from the start to this report
        LagCauses now = transport.eventLoopLagCauses();
        LagCauses causes = now == null || startCauses == null ? null : now.minus(startCauses);
        return new InstrumentHealth.Measured(lag99, lagMax, cpu, loopBusy, machine,
                causes == null ? Double.NaN : causes.waitingShare(), causes == null ? Double.NaN : causes.runningShare(), cores);
    }

    private long[] loopCpu() {
        long[] ids = transport.eventLoopThreadIds();
        long[] cpu = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            try {
                cpu[i] = THREADS.getThreadCpuTime(ids[i]);
            } catch (UnsupportedOperationException e) {
                cpu[i] = -1;
            }
        }
        return cpu;
    }

    /** {total jiffies, idle + iowait jiffies} of all CPUs, or null off Linux. */
    static long[] machine() {
        try {
            String first = Files.readAllLines(PROC_STAT).getFirst();
            String[] f = first.trim().split("\\s+");
            if (!f[0].equals("cpu")) return null;
            long total = 0;
            for (int i = 1; i < f.length && i <= 8; i++) total += Long.parseLong(f[i]); // user .. steal, not guests
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new long[]{total, idle};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
