package dev.blocklab.model;

import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;

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
 * created; after it returns, no platform thread of the model is alive.
 */
public interface Model extends AutoCloseable {

    /** The registered name with its parameters, such as {@code fixed:8}. */
    String name();

    /** Starts one request. */
    CompletableFuture<Object> submit(Request request);

    /** What theory predicts for this model, given the demand; see {@link Prediction#basis()}. */
    Prediction predict(Demand demand);

    @Override void close();
}
