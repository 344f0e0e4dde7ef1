package dev.blocklab.recorder;

import dev.blocklab.result.ContextSwitches;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;

/**
 * Process-wide counters at one instant. Thread-safe.
 *
 * <p>Context switches and CPU time come from {@code getrusage(RUSAGE_SELF)}, called through the FFM API: they
 * cover every thread of the process ({@code /proc/self/status} would count the main thread only). On a platform
 * without getrusage they read -1.
 */
public final class ProcessMetrics {

    /** Counters at one instant. */
    public record Snapshot(long cpuNanos, ContextSwitches contextSwitches, long allocatedBytes, long threadsStarted) {}

    private static final MethodHandle GETRUSAGE = lookupGetrusage();
    /** sizeof(struct rusage) on 64-bit Linux: two timevals then fourteen longs. */
    private static final long RUSAGE_BYTES = 144;
    private static final long OFFSET_NVCSW = 128;
    private static final long OFFSET_NIVCSW = 136;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ProcessMetrics() {}

    public static Snapshot snapshot() {
        long[] usage = rusage();
        return new Snapshot(usage[0], new ContextSwitches(usage[1], usage[2]), allocatedBytes(),
                THREADS.getTotalStartedThreadCount());
    }

    /** {cpuNanos (user + system), voluntary switches, involuntary switches}; -1s when unavailable. */
    static long[] rusage() {
        if (GETRUSAGE == null) return new long[]{cpuNanosFromJvm(), -1, -1};
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(RUSAGE_BYTES, 8);
            int rc = (int) GETRUSAGE.invokeExact(0, buf);
            if (rc != 0) return new long[]{cpuNanosFromJvm(), -1, -1};
            long userNanos = buf.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L + buf.get(ValueLayout.JAVA_LONG, 8) * 1_000L;
            long sysNanos = buf.get(ValueLayout.JAVA_LONG, 16) * 1_000_000_000L + buf.get(ValueLayout.JAVA_LONG, 24) * 1_000L;
            return new long[]{userNanos + sysNanos, buf.get(ValueLayout.JAVA_LONG, OFFSET_NVCSW),
                    buf.get(ValueLayout.JAVA_LONG, OFFSET_NIVCSW)};
        } catch (Throwable t) {
            return new long[]{cpuNanosFromJvm(), -1, -1};
        }
    }

    /** True when context switches come from getrusage. */
    public static boolean hasGetrusage() { return GETRUSAGE != null; }

    /** Live platform threads of the JVM now (virtual threads are not counted). */
    public static int platformThreads() { return THREADS.getThreadCount(); }

    /** JVM-wide peak of live platform threads since the last {@link #resetPeakPlatformThreads()}. */
    public static int peakPlatformThreads() { return THREADS.getPeakThreadCount(); }

    public static void resetPeakPlatformThreads() { THREADS.resetPeakThreadCount(); }

    /** OS threads of this process from /proc/self/status, or -1. */
    public static int osThreads() {
        try (ProcStatus status = new ProcStatus()) {
            return status.refresh() ? status.osThreads() : -1;
        }
    }

    /** Resident set size of this process in bytes from /proc/self/status, or -1. */
    public static long rssBytes() {
        try (ProcStatus status = new ProcStatus()) {
            return status.refresh() ? status.rssBytes() : -1;
        }
    }

    private static long allocatedBytes() {
        try {
            return THREADS.getTotalThreadAllocatedBytes();
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }

    private static long cpuNanosFromJvm() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private static MethodHandle lookupGetrusage() {
        try {
            if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) return null;
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("getrusage")
                    .map(addr -> linker.downcallHandle(addr,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (Throwable t) {
            return null;
        }
    }
}
