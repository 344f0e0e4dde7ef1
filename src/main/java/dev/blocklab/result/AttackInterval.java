package dev.blocklab.result;

/**
 * One interval of an attack's timeline: what happened between {@code startNanos} and {@code endNanos} after the
 * attack's start. Requests count in the interval their event fell in: scheduled by the time the schedule wanted
 * them sent, sent by the time they were sent, completed and errors by the time their response (or error) arrived,
 * latencies likewise by completion.
 *
 * @param startNanos  interval start, nanoseconds after the attack's start
 * @param endNanos    interval end (exclusive)
 * @param scheduled   requests the open schedule's pacer made due in the interval (before the attack's end);
 *                    null for a closed model, which has no schedule
 * @param sent        requests sent in the interval (counted when their response or error arrived; a request cut
 *                    off by a stop is not counted)
 * @param completed   responses and errors that arrived in the interval
 * @param errors      of those, the ones that failed (no response, or a status outside [200, 400))
 * @param p50Millis   median latency of the completions, milliseconds from the intended send time; null when none completed
 * @param p90Millis   90th percentile, likewise
 * @param p99Millis   99th percentile, likewise
 * @param maxMillis   the highest latency, likewise
 */
public record AttackInterval(long startNanos, long endNanos, Long scheduled, long sent, long completed, long errors,
                             Double p50Millis, Double p90Millis, Double p99Millis, Double maxMillis) {
    public AttackInterval {
        if (startNanos < 0 || endNanos <= startNanos)
            throw new IllegalArgumentException("interval [" + startNanos + ", " + endNanos + ") is empty or negative");
        if (sent < 0 || completed < 0 || errors < 0 || errors > completed || scheduled != null && scheduled < 0)
            throw new IllegalArgumentException("interval counts must be non-negative with errors <= completed");
    }

    /** The interval's length in seconds. */
    public double seconds() { return (endNanos - startNanos) / 1e9; }
}
