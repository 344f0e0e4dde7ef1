package dev.blocklab.capacity;

import java.util.Comparator;
import java.util.List;

/**
 * One offered rate measured {@code repeats.size()} times: judged on the run of median p99, with the range of
 * p99 over the repeats so noise is visible.
 *
 * @param ratePerSecond the offered rate
 * @param repeats       every run at this rate, in the order run
 */
public record Point(double ratePerSecond, List<Measurement> repeats) {
    public Point {
        repeats = List.copyOf(repeats);
        if (repeats.isEmpty()) throw new IllegalArgumentException("a point needs at least one run");
    }

    /** The run of median p99 (the lower middle for an even count). */
    public Measurement median() {
        List<Measurement> sorted = repeats.stream().sorted(Comparator.comparingDouble(Measurement::p99Millis)).toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    public double p99MinMillis() { return repeats.stream().mapToDouble(Measurement::p99Millis).min().orElseThrow(); }

    public double p99MaxMillis() { return repeats.stream().mapToDouble(Measurement::p99Millis).max().orElseThrow(); }

    /** True when any run at this rate was limited by the load generator. */
    public boolean instrumentLimited() { return repeats.stream().anyMatch(Measurement::instrumentLimited); }
}
