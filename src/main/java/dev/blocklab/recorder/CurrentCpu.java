package dev.blocklab.recorder;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The CPU the calling thread runs on, from glibc's {@code sched_getcpu()} through the FFM API (a few nanoseconds:
 * glibc reads it from the kernel's restartable-sequence area). Recorders use it to give each CPU its own stripe,
 * so the cache lines a CPU writes stay in that CPU's cache. A virtual thread reads its carrier's CPU, which may
 * change at the next instruction: callers use the answer as a hint, never for correctness.
 */
final class CurrentCpu {
    private static final MethodHandle SCHED_GETCPU = lookup();

    private CurrentCpu() {}

    /** The current CPU's index, or -1 where {@code sched_getcpu} is not available. */
    static int index() {
        if (SCHED_GETCPU == null) return -1;
        try {
            return (int) SCHED_GETCPU.invokeExact();
        } catch (Throwable t) {
            return -1;
        }
    }

    private static MethodHandle lookup() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("sched_getcpu")
                    .map(address -> linker.downcallHandle(address, FunctionDescriptor.of(ValueLayout.JAVA_INT),
                            Linker.Option.critical(false)))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
