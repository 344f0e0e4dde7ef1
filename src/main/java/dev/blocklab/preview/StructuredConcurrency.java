package dev.blocklab.preview;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Structured concurrency for the rest of blocklab, free of preview types. Thread-safe; every method may be
 * called from any thread.
 */
public final class StructuredConcurrency {
    private static final String UNAVAILABLE = unavailableReasonOnce();

    private StructuredConcurrency() {}

    /** Empty when structured concurrency works on this JVM; otherwise why not, in one line. */
    public static Optional<String> unavailableReason() { return Optional.ofNullable(UNAVAILABLE); }

    /**
     * Runs every task in its own virtual thread inside one structured scope and returns their results in
     * order. The first failure cancels the others and is rethrown as it was thrown (its type and message
     * intact). Throws {@link UnsupportedOperationException} when {@link #unavailableReason()} is present.
     */
    public static <T> List<T> forkAll(List<? extends Callable<? extends T>> tasks) throws Exception {
        if (UNAVAILABLE != null) throw new UnsupportedOperationException(UNAVAILABLE);
        return PreviewScopes.forkAll(tasks);
    }

    private static String unavailableReasonOnce() {
        try {
            return PreviewScopes.probe() ? null : "StructuredTaskScope probe failed";
        } catch (LinkageError e) {
            return "StructuredTaskScope is not available on Java " + Runtime.version().feature()
                    + " without --enable-preview for JDK 25 (" + e.getClass().getSimpleName() + ")";
        }
    }
}
