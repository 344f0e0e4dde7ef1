package dev.blocklab.model;

/**
 * A predicted wall time for a batch, with the formula that produced it.
 *
 * @param nanos the predicted wall time of the batch in nanoseconds
 * @param basis the formula in words, e.g. {@code ceil(100 / 8) x 1s}
 */
public record Prediction(long nanos, String basis) {
    public double millis() { return nanos / 1e6; }
}
