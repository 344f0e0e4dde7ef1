package dev.blocklab.result;

/**
 * What one client's connection pool did during a run on a real PostgreSQL or Redis, measured by the lab around each
 * call (not read from the pool's own counters): wait from asking for a connection to getting it, and connections
 * held at once. A run's {@link RunResult#pools()} holds one per client the run used; its notes are {@link #line()}.
 *
 * @param client          e.g. {@code jdbc+hikari}, {@code vertx-pg}, {@code jedis}, {@code lettuce}
 * @param poolSize        the pool's maximum size (1 for one shared multiplexed connection)
 * @param calls           calls that got a connection (Redis: a call of {@code count} pipelined commands is one)
 * @param failedWaits     calls that got no connection (pool wait timeout, server down)
 * @param peakInUse       most connections held at once; on one shared connection, most calls in flight on it
 * @param meanWaitMillis  mean wait for a connection, over the calls that got one
 * @param p99WaitMillis   99th percentile of that wait
 * @param maxWaitMillis   longest wait
 */
public record PoolStats(String client, int poolSize, long calls, long failedWaits, int peakInUse,
                        double meanWaitMillis, double p99WaitMillis, double maxWaitMillis) {

    /** How a client that multiplexes every call on one connection (no pool to wait for) names itself. */
    public static final String SHARED = " (one shared connection)";

    /** One line for notes: {@code jdbc+hikari pool 10: 500 calls, peak 10 in use, wait mean 12.0 ms, p99 40.1 ms}. */
    public String line() {
        if (client.endsWith(SHARED))
            return String.format(java.util.Locale.ROOT, "%s: %d calls, %d failed, peak %d calls in flight on it (no pool to wait for)",
                    client, calls, failedWaits, peakInUse);
        return String.format(java.util.Locale.ROOT, "%s pool %d: %d calls, %d failed waits, peak %d in use, wait for a connection mean %.1f ms, p99 %.1f ms, max %.1f ms",
                client, poolSize, calls, failedWaits, peakInUse, meanWaitMillis, p99WaitMillis, maxWaitMillis);
    }
}
