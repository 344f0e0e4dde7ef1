package dev.blocklab.model;

import dev.blocklab.workload.RequestTimes.Path;

/**
 * A predicted wall time for a batch, with the formula that produced it.
 *
 * @param nanos the predicted wall time of the batch in nanoseconds
 * @param basis the formula in words, e.g. {@code ceil(100 / 8) x 1s}
 * @param path  the path one request's time follows under the model (its calls in sequence, its critical path,
 *              or level by level), or null when the formula names none; latency percentiles are read on it
 */
public record Prediction(long nanos, String basis, Path path) {
    public Prediction(long nanos, String basis) { this(nanos, basis, null); }

    public double millis() { return nanos / 1e6; }
}
