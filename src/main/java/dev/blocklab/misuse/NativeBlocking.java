package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Virtual threads wait in a blocking native call (libc's {@code usleep} through FFM). Wrong: the call holds the
 * carrier, and no JFR event says so (no Java frame parks); only the watchdog sees the carrier stall. Correct:
 * {@code Thread.sleep}, which unmounts. It waits longer than the others, to outlast the stall threshold.
 */
final class NativeBlocking extends Case {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle USLEEP = LINKER.downcallHandle(LINKER.defaultLookup().find("usleep").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    NativeBlocking(boolean wrong) {
        super("virtual-native-blocking-call", wrong, Rule.STALLED_CARRIER,
                "virtual threads call libc usleep through FFM: each holds its carrier, and JFR has no event for it",
                "virtual threads wait with Thread.sleep, which unmounts them");
    }

    @Override public long blockNanos(long blockNanos, long stallNanos) { return Math.max(blockNanos, 2 * stallNanos); }

    @Override public void run(int requests, long blockNanos) throws Exception {
        int micros = (int) Math.min(999_999, blockNanos / 1000);
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < Math.min(requests, Runtime.getRuntime().availableProcessors()); i++)
                calls.add(virtual.submit(() -> {
                    if (!wrong()) sleep(micros * 1000L);
                    else try {
                        line = Lines.here(); int ignored = (int) USLEEP.invokeExact(micros);
                    } catch (Throwable t) {
                        throw new IllegalStateException("usleep failed", t);
                    }
                    return null;
                }));
            for (Future<?> f : calls) f.get();
        }
    }
}
