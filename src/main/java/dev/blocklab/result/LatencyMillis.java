package dev.blocklab.result;

import org.HdrHistogram.Histogram;

/**
 * Latency percentiles in milliseconds, from an HdrHistogram of nanoseconds (3 significant digits). Counted
 * from each request's intended start: its batch's start, its scheduled send time, or its user's submit.
 */
public record LatencyMillis(long count, double min, double mean, double p50, double p90, double p95, double p99,
                            double p999, double p9999, double max) {

    public static final LatencyMillis EMPTY = new LatencyMillis(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public static LatencyMillis of(Histogram nanos) {
        if (nanos.getTotalCount() == 0) return EMPTY;
        return new LatencyMillis(nanos.getTotalCount(), ms(nanos.getMinValue()), nanos.getMean() / 1e6,
                ms(nanos.getValueAtPercentile(50)), ms(nanos.getValueAtPercentile(90)),
                ms(nanos.getValueAtPercentile(95)), ms(nanos.getValueAtPercentile(99)),
                ms(nanos.getValueAtPercentile(99.9)), ms(nanos.getValueAtPercentile(99.99)), ms(nanos.getMaxValue()));
    }

    private static double ms(long nanos) { return nanos / 1e6; }
}
