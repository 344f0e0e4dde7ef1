package dev.blocklab.experiment;

import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * What a pool of threads behind a FIFO queue lets through an open-loop attack with a timeout: a pure,
 * deterministic function of pool size, per-request thread time, rate, duration and timeout.
 *
 * <p>The model. Request {@code n} ({@code n = 0, 1, ...}) arrives at {@code n / rate}, as an open-loop attacker
 * sends it, while {@code n / rate < duration}. On arrival it puts its jobs (the stretches of time it holds a pool
 * thread, e.g. one blocking call each) at the tail of one FIFO queue in order; a pool of {@code threads} threads
 * takes jobs from the head as threads come free, and a job holds its thread for exactly its length. The request
 * completes when its last job ends. It succeeds when completion minus arrival is below the timeout: one that
 * would complete exactly at the timeout fails, since any real cost, however small, lands it after (the talk's
 * round figures put sync-blocking's 81st to 88th requests exactly there). The server
 * does not know the client gave up, so a timed-out request still takes its threads (as Play 2.5 and a servlet
 * container do): the queue in front of later requests is never shortened by timeouts.
 *
 * <p>For one job of length {@code S} on {@code c} threads at rate {@code λ > c / S}, the wait grows by
 * {@code S - c / λ} every {@code c} requests, i.e. by {@code λ S / c - 1} seconds per second, and a request
 * fails once its wait exceeds {@code timeout - S}. Unlike a fluid model, the first {@code c} requests find idle
 * threads, which this discrete version counts. A request that holds no thread (non-blocking) is modelled with
 * {@link #NO_THREAD_HELD} threads: its jobs all start on arrival and its latency is its longest job.
 */
final class PoolQueuePrediction {
    /** Pass as {@code threads} when waiting holds no thread: every job starts at once. */
    static final int NO_THREAD_HELD = Integer.MAX_VALUE;

    /**
     * The predicted outcome.
     *
     * @param requests           requests the attack sends
     * @param successRatio       requests completing before the timeout / requests
     * @param medianLatencyNanos median of arrival-to-completion, timed-out requests counted at the timeout
     */
    record Outcome(long requests, double successRatio, long medianLatencyNanos) {}

    private PoolQueuePrediction() {}

    /**
     * Runs the model.
     *
     * @param threads       threads of the FIFO pool, or {@link #NO_THREAD_HELD}
     * @param jobNanos      the thread-holding jobs of one request, in queue order, each in nanoseconds (at least one)
     * @param ratePerSecond arrivals per second, positive
     * @param durationNanos how long requests arrive
     * @param timeoutNanos  the client's timeout from arrival
     */
    static Outcome predict(int threads, List<Long> jobNanos, double ratePerSecond, long durationNanos, long timeoutNanos) {
        if (threads < 1) throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        if (jobNanos.isEmpty()) throw new IllegalArgumentException("a request needs at least one job");
        if (!(ratePerSecond > 0)) throw new IllegalArgumentException("rate must be positive, got " + ratePerSecond);
        if (durationNanos <= 0 || timeoutNanos <= 0) throw new IllegalArgumentException("duration and timeout must be positive");
        long requests = requestsSent(ratePerSecond, durationNanos);
        if (requests > 10_000_000) throw new IllegalArgumentException("too many requests to model: " + requests);
        long jobs = requests * jobNanos.size();
        int workers = (int) Math.min(threads, jobs);
        PriorityQueue<Long> freeAt = new PriorityQueue<>(workers);   // when each thread is next free, nanoseconds
        for (int i = 0; i < workers; i++) freeAt.add(0L);
        long[] latencies = new long[(int) requests];
        long successes = 0;
        for (int n = 0; n < requests; n++) {
            long arrival = Math.round(n * 1e9 / ratePerSecond);
            long done = arrival;
            for (long job : jobNanos) {
                long start = Math.max(arrival, freeAt.poll());
                long end = start + job;
                freeAt.add(end);
                done = Math.max(done, end);
            }
            long latency = done - arrival;
            if (latency < timeoutNanos) successes++;
            latencies[n] = Math.min(latency, timeoutNanos);
        }
        Arrays.sort(latencies);
        return new Outcome(requests, requests == 0 ? 0 : (double) successes / requests,
                requests == 0 ? 0 : latencies[(int) ((requests - 1) / 2)]);
    }

    /**
     * The inverse question: by what factor must every job be longer for the model to let through no more than
     * {@code measuredSuccessRatio}? A measured ratio below the prediction then reads as "each request held its
     * threads F times its calls": the per-request cost the pool sizes leave out (socket round trips, hand-offs,
     * waiting for a core). The success ratio falls as jobs grow, so a bisection over factors in [1, 1000] finds it.
     *
     * @return the smallest factor (to 0.1 %) at which the model's success ratio is at most the measured one;
     *         1 when the model already lets through no more than measured
     */
    static double holdFactorFitting(double measuredSuccessRatio, int threads, List<Long> jobNanos, double ratePerSecond,
                                    long durationNanos, long timeoutNanos) {
        if (predict(threads, jobNanos, ratePerSecond, durationNanos, timeoutNanos).successRatio() <= measuredSuccessRatio) return 1;
        double low = 1, high = 1000;
        while (high / low > 1.001) {
            double mid = Math.sqrt(low * high);
            List<Long> longer = jobNanos.stream().map(j -> Math.round(j * mid)).toList();
            if (predict(threads, longer, ratePerSecond, durationNanos, timeoutNanos).successRatio() <= measuredSuccessRatio) high = mid;
            else low = mid;
        }
        return high;
    }

    /** Requests an open-loop attack sends: those due at {@code n / rate} strictly before the duration. */
    static long requestsSent(double ratePerSecond, long durationNanos) {
        return (long) Math.ceil(ratePerSecond * durationNanos / 1e9 - 1e-9);
    }
}
