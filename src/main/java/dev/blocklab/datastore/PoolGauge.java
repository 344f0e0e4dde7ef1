package dev.blocklab.datastore;

import dev.blocklab.result.PoolStats;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts one client's connections as the lab uses them: how long each call waited for a connection from its pool
 * (HdrHistogram, nanoseconds), how many were held at once (current and peak), and the calls that got none, by why
 * ({@link NoConnection}): the wait timed out, or the server refused or was gone. Written from any thread without
 * locks; {@link #stats()} reads a snapshot at the end of a run.
 */
final class PoolGauge {
    private static final long HIGHEST_NANOS = 3_600_000_000_000L;

    private final String client;
    private final int poolSize;
    private final Recorder waits = new Recorder(HIGHEST_NANOS, 2);
    private final AtomicInteger inUse = new AtomicInteger();
    private final AtomicInteger peakInUse = new AtomicInteger();
    private final LongAdder failedWaits = new LongAdder();
    private final LongAdder connectFailures = new LongAdder();
    private final LongAdder calls = new LongAdder();

    PoolGauge(String client, int poolSize) {
        this.client = client;
        this.poolSize = poolSize;
    }

    /** A call got its connection after waiting {@code waitNanos}; it holds it until {@link #released()}. */
    void acquired(long waitNanos) {
        calls.increment();
        waits.recordValue(Math.min(HIGHEST_NANOS, Math.max(0, waitNanos)));
        int now = inUse.incrementAndGet();
        peakInUse.accumulateAndGet(now, Math::max);
    }

    void released() { inUse.decrementAndGet(); }

    /** A call got no connection, for {@code why}. */
    void noConnection(NoConnection why) {
        (why == NoConnection.WAIT_TIMEOUT ? failedWaits : connectFailures).increment();
    }

    /**
     * A call went through this client without a pool to wait on (one shared connection); it is in flight on the
     * connection until {@link #released()}.
     */
    void sent() {
        calls.increment();
        peakInUse.accumulateAndGet(inUse.incrementAndGet(), Math::max);
    }

    int inUse() { return inUse.get(); }

    /** True once a call went through, or failed to get a connection. */
    boolean used() { return calls.sum() > 0 || failedWaits.sum() > 0 || connectFailures.sum() > 0; }

    /** How a client takes a connection from its pool. */
    interface Take<C, E extends Exception> {
        C take() throws E;
    }

    /**
     * How a client words a call that got no connection, given the one reading of {@code why}: it throws
     * {@code failure} in its own words, or returns to let it pass as it came.
     */
    interface Refused<E extends Exception> {
        void reword(Exception failure, NoConnection why) throws E;
    }

    /**
     * Takes a connection with {@code take}, timing the wait; a failure is counted as {@code why} tells it (a wait
     * that timed out, or a connection that could not be opened) and rethrown as it came.
     */
    <C, E extends Exception> C acquire(Take<C, E> take, java.util.function.Function<Throwable, NoConnection> why) throws E {
        return acquire(take, why, (failure, kind) -> {});
    }

    /**
     * As {@link #acquire(Take, java.util.function.Function)}, a failure told once by {@code why} for the count and
     * for {@code refused}, which may throw it in the client's own words.
     */
    <C, E extends Exception> C acquire(Take<C, E> take, java.util.function.Function<Throwable, NoConnection> why,
                                       Refused<? extends E> refused) throws E {
        long askedNanos = System.nanoTime();
        C connection;
        try {
            connection = take.take();
        } catch (Exception e) {
            NoConnection kind = why.apply(e);
            noConnection(kind);
            refused.reword(e, kind);
            throw e;
        }
        acquired(System.nanoTime() - askedNanos);
        return connection;
    }

    /** The figures so far if the pool was created and used, else nothing. */
    java.util.Optional<PoolStats> statsIf(boolean created) {
        return created && used() ? java.util.Optional.of(stats()) : java.util.Optional.empty();
    }

    /** The figures present, in order. */
    @SafeVarargs
    static java.util.List<PoolStats> ofUsed(java.util.Optional<PoolStats>... stats) {
        return java.util.Arrays.stream(stats).flatMap(java.util.Optional::stream).toList();
    }

    /** The figures so far; resets nothing. */
    PoolStats stats() {
        Histogram h = waits.getIntervalHistogram();
        synchronized (this) {
            all.add(h);
            return new PoolStats(client, poolSize, calls.sum(), failedWaits.sum(), connectFailures.sum(), peakInUse.get(),
                    all.getTotalCount() == 0 ? 0 : all.getMean() / 1e6,
                    all.getTotalCount() == 0 ? 0 : all.getValueAtPercentile(99) / 1e6,
                    all.getTotalCount() == 0 ? 0 : all.getMaxValue() / 1e6);
        }
    }

    private final Histogram all = new Histogram(HIGHEST_NANOS, 2);
}
