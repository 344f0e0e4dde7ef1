package dev.blocklab.model;

import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.RequestTimes;
import dev.blocklab.workload.RequestTimes.Path;

/**
 * What a batch asks of a model, for predictions. All times already divided by the time scale (but a real
 * server's operations, which run in real time).
 *
 * <p>With fixed latencies every request takes the same time and the mean figures are exact. With random
 * latencies {@code drawn} holds the times the run's requests will actually draw (see {@link RequestTimes}): when
 * it holds one time per request of the batch, a formula reads the batch's slowest request and schedules the
 * drawn times on its pool; when it holds a sample of a stream of requests ({@code requests} is 1, for open and
 * closed arrivals), a formula reads the expected time of one request, the sample's mean.
 *
 * @param requests          requests submitted at once
 * @param serialNanos       one request's calls one after another (expected)
 * @param criticalPathNanos one request's longest chain of calls (of expected latencies)
 * @param levelledPathNanos one request's time when each level of its graph is forked and joined in turn (expected)
 * @param callsPerRequest   downstream calls per request
 * @param cpuNanosPerRequest CPU work per request, measured once on this machine
 * @param cores             available processors
 * @param drawn             the requests' drawn times, or null when every latency is fixed
 */
public record Demand(long requests, long serialNanos, long criticalPathNanos, long levelledPathNanos, int callsPerRequest,
                     long cpuNanosPerRequest, int cores, RequestTimes drawn) {

    /** A demand of fixed latencies. */
    public Demand(long requests, long serialNanos, long criticalPathNanos, long levelledPathNanos, int callsPerRequest,
                  long cpuNanosPerRequest, int cores) {
        this(requests, serialNanos, criticalPathNanos, levelledPathNanos, callsPerRequest, cpuNanosPerRequest, cores, null);
    }

    public static Demand of(Graph graph, long requests, long timeScaleDivisor, long cpuNanosPerRequest, int cores) {
        return of(graph, requests, timeScaleDivisor, cpuNanosPerRequest, cores, null);
    }

    /** A demand whose random latencies (if any) are {@code drawn}. */
    public static Demand of(Graph graph, long requests, long timeScaleDivisor, long cpuNanosPerRequest, int cores,
                            RequestTimes drawn) {
        return new Demand(requests, graph.serialNanos(timeScaleDivisor), graph.criticalPathNanos(timeScaleDivisor),
                graph.levelledPathNanos(timeScaleDivisor), graph.callCount(), cpuNanosPerRequest, cores, drawn);
    }

    /** True when the times are drawn per request of the batch (random latencies, batch arrival). */
    public boolean drawnPerRequest() { return drawn != null && drawn.count() == requests; }

    /** The expected time of one request on {@code path} (the mean of the drawn sample with random latencies). */
    public long expectedNanos(Path path) {
        if (drawn != null) return Math.round(drawn.meanNanos(path));
        return switch (path) {
            case SERIAL -> serialNanos;
            case CRITICAL -> criticalPathNanos;
            case LEVELLED -> levelledPathNanos;
        };
    }

    /**
     * The time the batch waits for when every request runs at once: the slowest drawn request on {@code path}
     * for random latencies, one request's expected time otherwise.
     */
    public long slowestNanos(Path path) {
        return drawnPerRequest() ? drawn.maxNanos(path) : expectedNanos(path);
    }

    /**
     * The batch's time when each request holds one of {@code threads} threads for its time on {@code path}, plus
     * the CPU floor: waves of equal requests for fixed latencies, the drawn times scheduled first-free otherwise.
     */
    public long scheduleNanos(long threads, Path path) {
        if (!drawnPerRequest()) return waves(threads, expectedNanos(path));
        return drawn.scheduleNanos(threads, path) + cpuFloor(threads);
    }

    /** The duration that a formula's text names for {@code path}: e.g. {@code 60ms}, or {@code drawn: mean 60ms, max 410ms}. */
    public String describe(Path path) {
        if (drawn == null) return Durations.format(expectedNanos(path));
        if (!drawnPerRequest()) return "mean " + Durations.format(expectedNanos(path)) + " of " + drawn.count() + " drawn";
        return "drawn per request: mean " + Durations.format(expectedNanos(path)) + ", slowest " + Durations.format(drawn.maxNanos(path));
    }

    /**
     * The words for {@link #scheduleNanos}: {@code ceil(100 / 8) x 60ms} for fixed latencies, else the drawn
     * times scheduled on the threads.
     */
    public String scheduleText(String threads, Path path) {
        if (!drawnPerRequest()) return "ceil(" + requests + " / " + threads + ") x " + describe(path);
        return requests + " requests on " + threads + " threads, each to the first free (" + describe(path) + ")";
    }

    /** Time for the batch when each request holds one of {@code threads} threads for {@code perRequestNanos}. */
    public long waves(long threads, long perRequestNanos) {
        long waves = (requests + threads - 1) / threads;
        return waves * perRequestNanos + cpuFloor(threads);
    }

    /**
     * The batch's CPU work spread over at most {@code min(threads, cores)} cores, and never less than one request's
     * CPU, which runs on one core: {@code max(cpu, requests x cpu / parallel)} (it was the second alone, half a lone
     * request's CPU on 2 cores). A floor for time-sliced platform threads and for tasks that run to the end alike.
     */
    public long cpuFloor(long threads) {
        long parallel = Math.max(1, Math.min(threads, cores));
        return Math.max(requests == 0 ? 0 : cpuNanosPerRequest, requests * cpuNanosPerRequest / parallel);
    }
}
