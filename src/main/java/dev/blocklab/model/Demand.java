package dev.blocklab.model;

import dev.blocklab.workload.Graph;

/**
 * What a batch asks of a model, for predictions. All times already divided by the time scale.
 *
 * @param requests          requests submitted at once
 * @param serialNanos       one request's calls one after another
 * @param criticalPathNanos one request's longest chain of calls
 * @param levelledPathNanos one request's time when each level of its graph is forked and joined in turn
 * @param callsPerRequest   downstream calls per request
 * @param cpuNanosPerRequest CPU work per request, measured once on this machine
 * @param cores             available processors
 */
public record Demand(long requests, long serialNanos, long criticalPathNanos, long levelledPathNanos, int callsPerRequest,
                     long cpuNanosPerRequest, int cores) {

    public static Demand of(Graph graph, long requests, long timeScaleDivisor, long cpuNanosPerRequest, int cores) {
        return new Demand(requests, graph.serialNanos() / timeScaleDivisor, graph.criticalPathNanos() / timeScaleDivisor,
                graph.levelledPathNanos() / timeScaleDivisor, graph.callCount(), cpuNanosPerRequest, cores);
    }

    /** Time for the batch when each request holds one of {@code threads} threads for {@code perRequestNanos}. */
    public long waves(long threads, long perRequestNanos) {
        long waves = (requests + threads - 1) / threads;
        return waves * perRequestNanos + cpuFloor(threads);
    }

    /** The batch's CPU work spread over at most {@code min(threads, cores)} cores. */
    public long cpuFloor(long threads) {
        long parallel = Math.max(1, Math.min(threads, cores));
        return requests * cpuNanosPerRequest / parallel;
    }
}
