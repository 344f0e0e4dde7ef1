package dev.blocklab.result;

/**
 * What one client's connection pool did during a run on a real PostgreSQL or Redis, measured by the lab around each
 * call (not read from the pool's own counters): wait from asking for a connection to getting it, and connections
 * held at once. A run's {@link RunResult#pools()} holds one per client the run used; its notes are {@link #line()}.
 *
 * @param client          e.g. {@code jdbc+hikari}, {@code vertx-pg}, {@code jedis}, {@code lettuce}
 * @param poolSize        the pool's maximum size (1 for one shared multiplexed connection)
 * @param calls           calls that got a connection (Redis: a call of {@code count} pipelined commands is one)
 * @param failedWaits     calls that got no connection because none came free within the pool timeout (every one
 *                        held by other calls: the pool is the limit); on one shared connection, commands that timed
 *                        out queued on it
 * @param connectFailures calls that got no connection because opening one failed (on one shared connection: it was
 *                        not connected or dropped): the server refused it or was gone, not the pool's size; 0 in a
 *                        file saved before the two were told apart, which counted these as failed waits
 * @param peakInUse       most connections held at once; on one shared connection, most calls in flight on it
 * @param meanWaitMillis  mean wait for a connection, over the calls that got one
 * @param p99WaitMillis   99th percentile of that wait
 * @param maxWaitMillis   longest wait
 */
public record PoolStats(String client, int poolSize, long calls, long failedWaits, long connectFailures, int peakInUse,
                        double meanWaitMillis, double p99WaitMillis, double maxWaitMillis) {

    /** How a client that multiplexes every call on one connection (no pool to wait for) names itself. */
    public static final String SHARED = " (one shared connection)";

    /** True for a client that multiplexes every call on one connection: nothing waits for a connection from it. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean shared() { return client.endsWith(SHARED); }

    /**
     * One line for notes: {@code jdbc+hikari pool 10: 500 calls, 0 failed waits, 0 connect failures, peak 10 in use,
     * wait for a connection mean 12.0 ms, p99 40.1 ms, max 52.3 ms}, then why calls got none where some did.
     */
    public String line() {
        boolean shared = shared();
        String why = (failedWaits == 0 ? "" : shared
                ? "; timed out: the command timeout passed while queued on it behind the commands ahead, or waiting on the server"
                : "; failed waits: no connection came free within the pool timeout (the pool is the limit)")
                + (connectFailures == 0 ? "" : "; connect failures: the server refused the connection or was gone (not the pool's size)");
        if (shared)
            return String.format(java.util.Locale.ROOT, "%s: %d calls, %d timed out queued on it, %d connect failures, peak %d calls in flight on it (no pool to wait for)%s",
                    client, calls, failedWaits, connectFailures, peakInUse, why);
        return String.format(java.util.Locale.ROOT, "%s pool %d: %d calls, %d failed waits, %d connect failures, peak %d in use, wait for a connection mean %.1f ms, p99 %.1f ms, max %.1f ms%s",
                client, poolSize, calls, failedWaits, connectFailures, peakInUse, meanWaitMillis, p99WaitMillis, maxWaitMillis, why);
    }
}
