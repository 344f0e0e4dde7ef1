package dev.blocklab.model;

import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * A concurrency model: a way of running requests. One instance serves one run and is then closed.
 *
 * <p>Threads: {@link #submit} may be called from any thread, concurrently. It returns quickly for every model
 * but {@code sequential}, which runs the request on the caller and returns a completed future.
 *
 * <p>Outcomes: the returned future completes with the request's answer, or exceptionally with the original
 * failure of the step that failed (its type and message intact, possibly wrapped in a
 * {@link java.util.concurrent.CompletionException}). Cancelling the future interrupts a thread blocked on the
 * request where the model can.
 *
 * <p>Closing: {@link #close} waits for submitted requests' threads to end and releases every thread the model
 * created; after it returns, no platform thread of the model is alive. Called on one of the model's own threads
 * (from a request's callback), it cannot wait for that thread: a pool model interrupts the others and returns
 * at once, {@code virtual} waits for every other request.
 */
public interface Model extends AutoCloseable {

    /** The registered name with its parameters, such as {@code fixed:8}. */
    String name();

    /** Starts one request. */
    CompletableFuture<Object> submit(Request request);

    /**
     * Starts one request and hands its outcome to {@code onDone} once, as {@link CompletableFuture#whenComplete}
     * would (its answer, or its failure), for a caller that needs no future: the driver of a batch or an open
     * schedule without timeouts. The default is exactly {@code submit(request).whenComplete(onDone)}; a model may
     * skip the dependent stage that costs (the {@code virtual} model does: at a million requests in flight it is
     * 50-60 bytes each). Throws as {@link #submit} does when the request cannot start. Such a model may hand over a
     * failure unwrapped from its {@link java.util.concurrent.CompletionException} and a cancellation as a new
     * {@link java.util.concurrent.CancellationException}, and may call {@code onDone} once the request's thread has
     * ended rather than at the moment it was cancelled.
     */
    default void submit(Request request, BiConsumer<Object, Throwable> onDone) {
        submit(request).whenComplete(onDone);
    }

    /** What theory predicts for this model, given the demand; see {@link Prediction#basis()}. */
    Prediction predict(Demand demand);

    /**
     * True when a request ends at its first failure, as docs/workloads.md ("Failures") says every model should: its
     * calls one after another stop at the failing one, calls that overlap end at the earliest failure. False for a
     * model that waits for every call it started before the request completes ({@code ExecutorService.invokeAll},
     * {@code allOf}, {@code thenCombine}, a latch over every call), as some framework variants do by design.
     * Predictions read it: a model that fails fast is predicted from times that end at each request's first
     * failure ({@link dev.blocklab.workload.RequestTimes#forPrediction}). The default is the semantics' rule; a model
     * that waits says so, and a model that wraps another answers as the wrapped one does. Its registry entry
     * says the same ({@link ModelEntry#failsFast}).
     */
    default boolean failsFast() { return true; }

    @Override void close();
}
