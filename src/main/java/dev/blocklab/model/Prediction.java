package dev.blocklab.model;

import dev.blocklab.workload.RequestTimes.Path;

/**
 * A predicted wall time for a batch, with the formula that produced it.
 *
 * @param nanos    the predicted wall time of the batch in nanoseconds
 * @param basis    the formula in words, e.g. {@code ceil(100 / 8) x 1s}
 * @param path     the path one request's time follows under the model (its calls in sequence, its critical path,
 *                 or level by level), or null when the formula names none; latency percentiles are read on it
 * @param requeues how many times, once its calls have ended, a request's remaining work queues again, one after
 *                 another, behind the calls of every request that arrived meanwhile (read by {@link ArrivalPrediction}
 *                 above capacity): 0 when a request leaves as its own calls end (it waits for them on a thread of its
 *                 own, or merges as they end); 2 for merge tasks, then a join task, queued on the calls' own
 *                 first-come pool; 1 for a Disruptor stage, which passes the events it took in one batch on only
 *                 once the whole batch is done
 */
public record Prediction(long nanos, String basis, Path path, int requeues) {

    public Prediction {
        if (requeues < 0) throw new IllegalArgumentException("requeues must be >= 0, got " + requeues);
    }

    public Prediction(long nanos, String basis, Path path) { this(nanos, basis, path, 0); }

    public Prediction(long nanos, String basis) { this(nanos, basis, null); }

    /** The same prediction in other words (a formula's text with what its figure includes). */
    public Prediction withBasis(String newBasis) { return new Prediction(nanos, newBasis, path, requeues); }

    /** The same prediction for a model whose requests queue again {@code newRequeues} times after their calls. */
    public Prediction withRequeues(int newRequeues) { return new Prediction(nanos, basis, path, newRequeues); }

    public double millis() { return nanos / 1e6; }
}
