package dev.blocklab.server;

/**
 * Adaptive admission by measured queueing delay, after CoDel as Facebook's wangle applies it to server queues
 * ({@code wangle/concurrent/Codel}): a request's queueing delay is measured when a thread takes it; the queue is
 * <em>overloaded</em> when the smallest delay seen over the last interval exceeded the target (a standing queue,
 * not a burst); while it is, a request that waited more than twice the target is shed (answered 503 at once,
 * costing microseconds) instead of run.
 *
 * <p>So a queue never holds more than about one interval of stale work: under any overload the threads serve
 * the freshest requests at their full capacity and the rest are refused within {@code 2 x target}; when the
 * overload ends, the next interval's minimum falls under the target and nothing is shed. A fixed bound
 * ({@code --queue}) instead keeps 10,000 abandoned requests to serve after their clients left.
 *
 * <p>Time is passed in (nanoseconds of any monotonic clock), so every case is a table test. Thread-safe: the
 * state is two longs and a flag; a race between two threads ending an interval at once only makes one of them
 * use the previous interval's verdict, as in wangle.
 */
final class QueueDelayShedder {
    /**
     * A 20 ms target over 200 ms intervals, larger than wangle's 5 ms over 100 ms, because the lab's requests
     * hold a thread for 10 ms to seconds and its 2-core machine is shared (a hand-off there alone can take over
     * 10 ms under load; with wangle's figures 11 of 120 requests were shed at half capacity); still a queue of
     * at most 40 ms of waiting, against seconds of service.
     */
    static final long DEFAULT_TARGET_NANOS = 20_000_000, DEFAULT_INTERVAL_NANOS = 200_000_000;

    private final long targetNanos;
    private final long intervalNanos;
    private long intervalEndNanos;
    private long minDelayNanos = Long.MAX_VALUE;
    private boolean overloaded;

    QueueDelayShedder(long targetNanos, long intervalNanos, long nowNanos) {
        if (targetNanos <= 0 || intervalNanos <= 0) throw new IllegalArgumentException("target and interval must be positive");
        this.targetNanos = targetNanos;
        this.intervalNanos = intervalNanos;
        this.intervalEndNanos = nowNanos + intervalNanos;
    }

    static QueueDelayShedder withDefaults(long nowNanos) {
        return new QueueDelayShedder(DEFAULT_TARGET_NANOS, DEFAULT_INTERVAL_NANOS, nowNanos);
    }

    /**
     * Called when a thread takes a request that waited {@code delayNanos}.
     *
     * @return true when the request must be shed rather than run
     */
    synchronized boolean shed(long delayNanos, long nowNanos) {
        if (nowNanos - intervalEndNanos > 0) {
            overloaded = minDelayNanos != Long.MAX_VALUE && minDelayNanos > targetNanos;
            intervalEndNanos = nowNanos + intervalNanos;
            minDelayNanos = delayNanos;
        } else if (delayNanos < minDelayNanos) {
            minDelayNanos = delayNanos;
        }
        return overloaded && delayNanos > 2 * targetNanos;
    }

    /** True while the last interval's smallest delay exceeded the target. */
    synchronized boolean overloaded() { return overloaded; }
}
