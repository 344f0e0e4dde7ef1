package dev.blocklab.result;

import java.util.Objects;

/**
 * How long a run took and how fast its requests were answered.
 *
 * @param wallMillis          wall time of the run, {@link System#nanoTime()} from the first submit to the last
 *                            completion
 * @param throughputPerSecond requests completed per second of wall time
 * @param latencyMillis       latency percentiles, each request counted from its intended start
 * @param latencyHistogram    the latency HdrHistogram in nanoseconds, compressed and base64-encoded ("" if not kept)
 */
public record Timing(double wallMillis, double throughputPerSecond, LatencyMillis latencyMillis, String latencyHistogram) {
    public Timing {
        if (!(wallMillis >= 0)) throw new IllegalArgumentException("wall time must be >= 0 ms, got " + wallMillis);
        if (!(throughputPerSecond >= 0))
            throw new IllegalArgumentException("throughput must be >= 0 per second, got " + throughputPerSecond);
        Objects.requireNonNull(latencyMillis, "latencyMillis");
        if (latencyHistogram == null) latencyHistogram = "";
    }
}
