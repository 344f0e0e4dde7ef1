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

    /** Redis commands that wait on the server (on an empty list, a sorted set or a stream) before they answer. */
    private static final java.util.Set<String> BLOCKING_COMMANDS = java.util.Set.of("BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH",
            "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "WAIT", "WAITAOF");

    /**
     * The prediction for a graph's Redis steps as a model calls them: a blocking model holds one of the Jedis
     * pool's {@code connections} for each step's expected latency; a non-blocking one shares Lettuce's one
     * connection, which answers in order, so only the commands that wait on the server (BLPOP and its kind, XREAD
     * with BLOCK) hold it, every other request's commands queued behind them.
     */
    public static PoolPrediction forRedis(Graph graph, int connections, boolean nonBlocking) {
        long hold = 0;
        for (Step s : graph.steps())
            if (s instanceof Step.Call c && c.operation() instanceof Operation.Redis r && (!nonBlocking || waitsOnServer(r)))
                hold += c.latency().expectedNanos();
        return new PoolPrediction(nonBlocking ? 1 : connections, hold);
    }

    /** True for a command that waits on the server before it answers: BLPOP and its kind, XREAD or XREADGROUP with BLOCK. */
    static boolean waitsOnServer(Operation.Redis r) {
        if (BLOCKING_COMMANDS.contains(r.command())) return true;
        return (r.command().equals("XREAD") || r.command().equals("XREADGROUP"))
                && r.args().stream().anyMatch(a -> a.equalsIgnoreCase("BLOCK"));
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
        return String.format(Locale.ROOT, "%d connection%s / %.0f ms held per request = %s req/s", connections, connections == 1 ? "" : "s",
                holdNanos / 1e6, dev.blocklab.load.Rates.number(maxRequestsPerSecond()));
    }
}
