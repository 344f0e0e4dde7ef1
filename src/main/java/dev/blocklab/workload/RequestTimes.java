package dev.blocklab.workload;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The times of a run's requests drawn exactly as the run draws them: request {@code i} of a run has id
 * {@code i}, and every call's latency comes from {@code (seed, id, step)} (see {@link Request}), so these are the
 * latencies the run will face, not their means. Predictions read them where the mean would mislead: a batch ends
 * with its slowest request, and the expected maximum of 100 log-normal draws is far above their mean.
 *
 * <p>All times are in nanoseconds with the time scale already applied. A call counts its attempts as
 * {@link Request#callNanos} does: each at most its timeout, a retry's backoffs, a hedge's faster answer. CPU steps
 * count zero (the demand adds CPU separately). For a model that fails fast ({@code Model.failsFast}) a call that
 * fails ends its request there (docs/workloads.md, "Failures"): calls one after another stop at it, a graph's paths
 * at the earliest failure, a level at its first. For a model that waits for every call it started, a failed call
 * counts its whole time as any other.
 *
 * @param serialNanos       per request: its calls one after another (a sequence is the sum)
 * @param criticalPathNanos per request: its longest chain of calls (a fork is the maximum of its branches)
 * @param levelledPathNanos per request: each level of its graph forked and joined in turn
 */
public record RequestTimes(long[] serialNanos, long[] criticalPathNanos, long[] levelledPathNanos) {

    /** Which of a request's times a model's formula uses. */
    public enum Path { SERIAL, CRITICAL, LEVELLED }

    public RequestTimes {
        if (serialNanos.length != criticalPathNanos.length || serialNanos.length != levelledPathNanos.length)
            throw new IllegalArgumentException("one time per request on every path");
        if (serialNanos.length == 0) throw new IllegalArgumentException("at least one request");
    }

    /**
     * True when a call's time varies from request to request, so the mean of a call is not what every request
     * faces: its latency is drawn at random, or it makes attempts (retries, a hedge) whose number and times are drawn.
     */
    public static boolean isRandom(Graph graph) {
        for (Step s : graph.steps())
            if (s instanceof Step.Call c && (!(c.latency() instanceof Latency.Fixed) || !(c.attempts() instanceof Step.Attempts.Once)))
                return true;
        return false;
    }

    /**
     * True when a call may fail: its failure has a chance, or it has a timeout that its latency may pass (any but a
     * fixed latency within it). A request of a model that fails fast may then end before its calls' times.
     */
    public static boolean mayFail(Graph graph) {
        for (Step s : graph.steps())
            if (s instanceof Step.Call c && (c.failureProbability() > 0 || c.timeoutNanos() > 0
                    && !(c.latency() instanceof Latency.Fixed(long nanos) && nanos <= c.timeoutNanos())))
                return true;
        return false;
    }

    /**
     * The drawn times a prediction reads for a model that fails fast or not, or null when every request takes the
     * graph's expected times: the one place that chooses. Drawn when a call's time varies ({@link #isRandom}), and
     * for a model that fails fast when a call may fail ({@link #mayFail}): its requests then end at their own first
     * failure, which the graph's expected times do not know of.
     */
    public static RequestTimes forPrediction(Graph graph, long seed, long timeScaleDivisor, int count, boolean failsFast) {
        boolean drawn = isRandom(graph) || failsFast && mayFail(graph);
        return drawn ? draw(graph, seed, timeScaleDivisor, count, failsFast) : null;
    }

    /**
     * Draws the times of requests {@code 0 .. count - 1} of a run with this seed and time scale, each ending at its
     * first failure when {@code failsFast} (see the class comment).
     */
    public static RequestTimes draw(Graph graph, long seed, long timeScaleDivisor, int count, boolean failsFast) {
        if (count <= 0) throw new IllegalArgumentException("count must be > 0, got " + count);
        List<List<Integer>> levels = graph.levels();
        List<Step> steps = graph.steps();
        long[] serial = new long[count];
        long[] critical = new long[count];
        long[] levelled = new long[count];
        long[] delay = new long[steps.size()];
        long[] finish = new long[steps.size()];
        boolean[] ends = new boolean[steps.size()];   // the call fails and ends its request there
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) index.put(steps.get(i).name(), i);
        for (int id = 0; id < count; id++) {
            Request request = new Request(id, graph, seed, timeScaleDivisor);
            long sum = 0;
            long serialEndNanos = -1;               // calls one after another stop at the first that fails
            long longest = 0;
            long firstFailureNanos = Long.MAX_VALUE;   // on the graph's paths, the earliest failure ends the request
            for (int i = 0; i < steps.size(); i++) {
                Step s = steps.get(i);
                long end = s instanceof Step.Call ? request.callEndNanos(i) : 0;
                long d = Math.abs(end);
                ends[i] = failsFast && end < 0;
                delay[i] = d;
                sum += d;
                if (ends[i] && serialEndNanos < 0) serialEndNanos = sum;
                long start = 0;
                for (String in : s.inputs()) if (!Graph.INPUT.equals(in)) start = Math.max(start, finish[index.get(in)]);
                finish[i] = start + d;
                longest = Math.max(longest, finish[i]);
                if (ends[i]) firstFailureNanos = Math.min(firstFailureNanos, finish[i]);
            }
            serial[id] = serialEndNanos < 0 ? sum : serialEndNanos;
            critical[id] = Math.min(longest, firstFailureNanos);
            levelled[id] = levelledNanos(levels, delay, ends);
        }
        return new RequestTimes(serial, critical, levelled);
    }

    /** Each level forked and joined in turn: a level takes its slowest step, or its first failure, which ends the request. */
    private static long levelledNanos(List<List<Integer>> levels, long[] delay, boolean[] ends) {
        long total = 0;
        for (List<Integer> level : levels) {
            long slowest = 0;
            long firstFailure = Long.MAX_VALUE;
            for (int i : level) {
                slowest = Math.max(slowest, delay[i]);
                if (ends[i]) firstFailure = Math.min(firstFailure, delay[i]);
            }
            if (firstFailure != Long.MAX_VALUE) return total + firstFailure;
            total += slowest;
        }
        return total;
    }

    public int count() { return serialNanos.length; }

    /** The per-request times on one path. */
    public long[] on(Path path) {
        return switch (path) {
            case SERIAL -> serialNanos;
            case CRITICAL -> criticalPathNanos;
            case LEVELLED -> levelledPathNanos;
        };
    }

    /** The slowest request's time on {@code path}: what a batch that runs every request at once waits for. */
    public long maxNanos(Path path) { return Arrays.stream(on(path)).max().orElseThrow(); }

    public double meanNanos(Path path) { return Arrays.stream(on(path)).average().orElseThrow(); }

    /** The {@code percentile} (0-100] of the times on {@code path}, nearest rank. */
    public long percentileNanos(Path path, double percentile) {
        long[] sorted = on(path).clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
    }

    /**
     * The time {@code threads} workers take to run every request in id order, each request holding one worker for
     * its time on {@code path} and going to the first worker free (a FIFO pool): list scheduling, exact for a
     * fixed pool fed a batch at once. With equal times it is {@code ceil(n / threads) x t}.
     */
    public long scheduleNanos(long threads, Path path) {
        long[] times = on(path);
        if (threads >= times.length) return maxNanos(path);
        java.util.PriorityQueue<Long> free = new java.util.PriorityQueue<>();
        for (long t = 0; t < threads; t++) free.add(0L);
        long end = 0;
        for (long t : times) {
            long done = free.poll() + t;
            end = Math.max(end, done);
            free.add(done);
        }
        return end;
    }

    @Override public boolean equals(Object o) {
        return o instanceof RequestTimes r && Arrays.equals(serialNanos, r.serialNanos)
                && Arrays.equals(criticalPathNanos, r.criticalPathNanos) && Arrays.equals(levelledPathNanos, r.levelledPathNanos);
    }

    @Override public int hashCode() {
        return 31 * (31 * Arrays.hashCode(serialNanos) + Arrays.hashCode(criticalPathNanos)) + Arrays.hashCode(levelledPathNanos);
    }

    @Override public String toString() { return "RequestTimes[" + count() + " requests]"; }
}
