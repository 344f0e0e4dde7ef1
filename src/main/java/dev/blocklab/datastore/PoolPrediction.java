package dev.blocklab.datastore;

import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Operation;
import dev.blocklab.workload.Step;

import java.util.Locale;

/**
 * Little's law for a connection pool: {@code connections} connections, each held for {@code holdNanos} per
 * request, complete at most {@code connections / hold} requests a second, however many threads or callbacks wait
 * for them. Pure arithmetic, for predictions beside the measured throughput.
 *
 * @param connections the pool's size
 * @param holdNanos   how long one request holds a connection: the sum of its SQL steps' expected latencies
 *                    (each step takes and returns one connection)
 */
public record PoolPrediction(int connections, long holdNanos) {
    public PoolPrediction {
        if (connections < 1) throw new IllegalArgumentException("connections must be >= 1");
        if (holdNanos < 0) throw new IllegalArgumentException("hold time must be >= 0");
    }

    /** The prediction for a graph's SQL steps through a pool of {@code connections}. */
    public static PoolPrediction forSql(Graph graph, int connections) {
        long hold = 0;
        for (Step s : graph.steps())
            if (s instanceof Step.Call c && c.operation() instanceof Operation.Sql) hold += c.latency().expectedNanos();
        return new PoolPrediction(connections, hold);
    }

    /** The pool's capacity in requests per second; infinite when requests hold no measurable time. */
    public double maxRequestsPerSecond() {
        return holdNanos == 0 ? Double.POSITIVE_INFINITY : connections * 1e9 / holdNanos;
    }

    /** The throughput expected at an open {@code offeredPerSecond}: the smaller of the offer and the capacity. */
    public double throughputPerSecond(double offeredPerSecond) {
        return Math.min(offeredPerSecond, maxRequestsPerSecond());
    }

    /** Connections busy on average at that offer (Little's law: arrivals x hold time), at most the pool. */
    public double connectionsInUse(double offeredPerSecond) {
        return Math.min(connections, throughputPerSecond(offeredPerSecond) * holdNanos / 1e9);
    }

    /** {@code 10 connections / 100 ms = 100 req/s}. */
    public String basis() {
        return String.format(Locale.ROOT, "%d connections / %.0f ms held per request = %.0f req/s", connections, holdNanos / 1e6, maxRequestsPerSecond());
    }
}
