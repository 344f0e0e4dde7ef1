package dev.blocklab.capacity;

/**
 * What one run at one offered rate measured, with the cost per request there. Latencies count from each
 * request's intended send time (open loop); CPU is the process's user plus system time (getrusage) over the
 * requests completed; allocation is the JVM-wide total over the requests completed.
 *
 * @param offeredPerSecond    the rate the schedule asked for
 * @param throughputPerSecond requests completed per second of wall time
 * @param requests            requests completed (in any way)
 * @param successRatio        successes over completed requests, in [0, 1]
 * @param p50Millis           latency median
 * @param p90Millis           latency 90th percentile
 * @param p99Millis           latency 99th percentile
 * @param p999Millis          latency 99.9th percentile
 * @param cpuMicrosPerRequest process CPU per request completed
 * @param allocatedBytesPerRequest heap allocation per request completed
 * @param peakThreads         peak live platform threads (in process) or server threads (over HTTP)
 * @param peakRssBytes        peak resident memory, or -1 when unknown
 * @param instrumentLimited   true when the load generator, not the entry, set the numbers
 * @param instrumentNote      the instrument's verdict in words (empty in process, where the driver paces itself)
 * @param doneInStepPerSecond requests completed within the step per second of the step after its fastest
 *                            request's latency (so requests still in flight at the step's end, as any steady
 *                            run has, are allowed for): below the offered rate when a backlog grew across the
 *                            step; null where not measured (over HTTP, and in files saved before it was)
 * @param pools               what each connection pool of a real PostgreSQL or Redis did in this run
 *                            ({@link dev.blocklab.result.RunResult#pools()}); empty (and absent from JSON) without one
 */
public record Measurement(double offeredPerSecond, double throughputPerSecond, long requests, double successRatio,
                          double p50Millis, double p90Millis, double p99Millis, double p999Millis,
                          double cpuMicrosPerRequest, double allocatedBytesPerRequest, int peakThreads, long peakRssBytes,
                          boolean instrumentLimited, String instrumentNote, Double doneInStepPerSecond,
                          @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                          java.util.List<dev.blocklab.result.PoolStats> pools) {

    public Measurement {
        pools = pools == null ? java.util.List.of() : java.util.List.copyOf(pools);   // null: saved before pools were
    }

    /** A run without connection pools (simulated backend, or over HTTP). */
    public Measurement(double offeredPerSecond, double throughputPerSecond, long requests, double successRatio,
                       double p50Millis, double p90Millis, double p99Millis, double p999Millis,
                       double cpuMicrosPerRequest, double allocatedBytesPerRequest, int peakThreads, long peakRssBytes,
                       boolean instrumentLimited, String instrumentNote, Double doneInStepPerSecond) {
        this(offeredPerSecond, throughputPerSecond, requests, successRatio, p50Millis, p90Millis, p99Millis, p999Millis,
                cpuMicrosPerRequest, allocatedBytesPerRequest, peakThreads, peakRssBytes, instrumentLimited, instrumentNote,
                doneInStepPerSecond, java.util.List.of());
    }

    /** Completions falling short of the offered rate by more than this share mean a backlog grew. */
    static final double DONE_SHARE = 0.9;

    /** Why this run's backlog grew across its step ("6/s done of 10/s offered"), or empty when it kept up or was not measured. */
    public java.util.Optional<String> backlog() {
        if (doneInStepPerSecond == null || doneInStepPerSecond >= DONE_SHARE * offeredPerSecond) return java.util.Optional.empty();
        return java.util.Optional.of(String.format(java.util.Locale.ROOT, "backlog grew: %s/s done of %s/s offered",
                dev.blocklab.load.Rates.number(doneInStepPerSecond), dev.blocklab.load.Rates.number(offeredPerSecond)));
    }

    /** The latency percentile named {@code p50}, {@code p90}, {@code p99} or {@code p999}, in milliseconds. */
    public double latencyMillis(String percentile) {
        return switch (percentile) {
            case "p50" -> p50Millis;
            case "p90" -> p90Millis;
            case "p99" -> p99Millis;
            case "p999" -> p999Millis;
            default -> throw new IllegalArgumentException("no latency percentile named " + percentile);
        };
    }
}
