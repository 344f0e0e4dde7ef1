package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Virtual threads sort through libc's {@code qsort} with a Java comparator called back through an FFM upcall
 * stub. Wrong: the comparator blocks, with the native {@code qsort} frame under it, so the virtual thread cannot
 * unmount and holds its carrier. Correct: the same wait happens before the native call.
 */
final class PinnedUpcall extends Case {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final FunctionDescriptor COMPARE = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
    private static final MethodHandle QSORT = LINKER.downcallHandle(LINKER.defaultLookup().find("qsort").orElseThrow(),
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
    private static volatile long comparatorBlockNanos;
    private static volatile int comparatorLine = -1;

    PinnedUpcall(boolean wrong) {
        super("virtual-pinned-by-upcall", wrong, Rule.VIRTUAL_THREAD_PINNED,
                "a virtual thread calls qsort through FFM; the Java comparator (an upcall) sleeps under the native frame",
                "a virtual thread sleeps first, then calls qsort with a comparator that does not block");
    }

    @Override public void run(int requests, long blockNanos) throws Exception {
        comparatorBlockNanos = wrong() ? blockNanos : 0;
        MethodHandle compare = MethodHandles.lookup().findStatic(PinnedUpcall.class, "compare",
                MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
        try (Arena arena = Arena.ofShared(); ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            MemorySegment comparator = LINKER.upcallStub(compare, COMPARE, arena);
            List<Future<?>> sorts = new ArrayList<>();
            for (int i = 0; i < requests; i++)
                sorts.add(virtual.submit(() -> {
                    if (!wrong()) sleep(blockNanos);
                    try (Arena local = Arena.ofConfined()) {
                        MemorySegment ints = local.allocateFrom(ValueLayout.JAVA_INT, 2, 1);
                        QSORT.invokeExact(ints, 2L, 4L, comparator);
                    } catch (Throwable t) {
                        throw new IllegalStateException("qsort failed", t);
                    }
                    return null;
                }));
            for (Future<?> f : sorts) f.get();
        }
        line = comparatorLine;
    }

    /** The comparator qsort calls back; blocks in the wrong case. */
    private static int compare(MemorySegment a, MemorySegment b) {
        long block = comparatorBlockNanos;
        if (block > 0) {
            try {
                comparatorLine = Lines.here(); Thread.sleep(Duration.ofNanos(block));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return Integer.compare(a.reinterpret(4).get(ValueLayout.JAVA_INT, 0), b.reinterpret(4).get(ValueLayout.JAVA_INT, 0));
    }
}
