package dev.blocklab.report;

import dev.blocklab.result.RunResult;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far a run's measured figure ({@link RunResult#measuredMillis()}: wall time of a batch, mean latency
 * otherwise) is from its prediction, and the likely cause when it is more than
 * {@value #TOLERANCE_PERCENT} % away. Causes are checked in order, the first that fits is named, each with
 * the figures that show it: timeouts (slower) or failures whose share matches the gap (faster), CPU saturation
 * (with the CPU per request), thread creation, a saturated pool (by Little's law), the time scale's fixed
 * per-request costs, then overhead the formula leaves out.
 *
 * @param ratio  measured over predicted
 * @param cause  a short name of the likely cause, e.g. {@code pool saturated}; {@code ok} within tolerance
 * @param detail one line with the figures behind the cause (the prediction's formula is in the run's
 *               {@code predictionBasis})
 */
public record Deviation(double ratio, String cause, String detail) {
    /** Below this a prediction counts as zero (a graph of CPU and combine steps only), and no ratio is formed. */
    private static final double ZERO_MILLIS = 0.001;

    public static final int TOLERANCE_PERCENT = 20;
    /** The share of timed-out or cancelled requests from which they are named as a slower run's cause. */
    static final double LATE_SHARE = 0.1;
    private static final Pattern POOL = Pattern.compile("^(fixed|forkjoin|cf-blocking):(\\d+)$");

    /** True when measurement and prediction differ by more than the tolerance. */
    public boolean flagged() { return !cause.equals("ok") && !Double.isNaN(ratio); }

    /** The ratio, e.g. {@code 1.04 x}, and beyond the tolerance its cause, e.g. {@code 2.4 x: pool saturated}, for a table cell. */
    public String flag() {
        if (Double.isNaN(ratio)) return "- (" + cause + ")";
        return RunTables.num(ratio) + " x" + (flagged() ? ": " + cause : "");
    }

    /** Assesses {@code r} on this machine's processor count. */
    public static Deviation of(RunResult r) { return of(r, Runtime.getRuntime().availableProcessors()); }

    /** Assesses {@code r}, measured on {@code cores} processors. */
    public static Deviation of(RunResult r, int cores) {
        if (r.interrupted() != null)   // a part of the run, with the slowest requests cut off: no ratio to speak of
            return new Deviation(Double.NaN, "stopped early", "stopped before its end (" + r.interrupted().sentText() + ", "
                    + r.counts().requests() + " completed); a part of a run is not compared with the prediction of the whole");
        if (r.prediction().predictedMillis() < ZERO_MILLIS)   // a path with no call or wait: no ratio to speak of
            return new Deviation(Double.NaN, "prediction 0 ms", "no step on the path has a latency to predict from (a sql: or redis: step "
                    + "without latency: counts as 0 ms); give the step a latency: to have it predicted");
        double ratio = r.measuredMillis() / r.prediction().predictedMillis();
        boolean within = ratio <= 1 + TOLERANCE_PERCENT / 100.0 && ratio >= 1 - TOLERANCE_PERCENT / 100.0;
        if (within) return new Deviation(ratio, "ok", "within " + TOLERANCE_PERCENT + " % of the prediction ("
                + RunTables.num(ratio) + " x, " + r.prediction().predictionBasis() + ")");
        Deviation failed = failures(r, ratio);
        if (failed != null) return failed;
        if (ratio > 1) return slower(r, ratio, cores);
        return new Deviation(ratio, "faster than the formula",
                "the formula assumed less overlap than happened, e.g. a pool that grew or calls that ran side by side");
    }

    /**
     * Failures as the cause only when their numbers can account for the gap: a timed-out or cancelled request
     * holds its time until it gives up, so timeouts can make a run slower; a failed call ends its request early,
     * so failures can make it faster, and only when their share is of the order of the gap ({@code 1 - ratio}).
     * Otherwise (a 1 % failure rate beside a 1.33 x slowdown) the failures are not named and the next cause is
     * checked.
     */
    private static Deviation failures(RunResult r, double ratio) {
        long late = r.counts().timeouts() + r.counts().cancelled();
        double lateShare = r.counts().requests() == 0 ? 0 : (double) late / r.counts().requests();
        // predictions count call timeouts and the deadline: a few requests that timed out are not the gap's cause
        if (ratio > 1 && late > 0 && lateShare >= LATE_SHARE)
            return new Deviation(ratio, "requests timed out", String.format(Locale.ROOT,
                    "%d of %d requests (%.0f %%) timed out or were cancelled, each holding its time until it gave up", late,
                    r.counts().requests(), lateShare * 100));
        if (ratio < 1 && late > 0 && lateShare >= (1 - ratio) / 2)
            return new Deviation(ratio, "requests cut at their deadline", String.format(Locale.ROOT,
                    "%d of %d requests timed out or were cancelled (%.0f %%), ending before their calls did", late,
                    r.counts().requests(), lateShare * 100));
        double failedShare = r.counts().requests() == 0 ? 0 : (double) r.counts().failures() / r.counts().requests();
        // a formula that already ended each request at its first failure counted them: they are not the gap's cause
        if (ratio < 1 && r.counts().failures() > 0 && failedShare >= (1 - ratio) / 2 && !r.prediction().failuresCounted())
            return new Deviation(ratio, "requests failed early", String.format(Locale.ROOT,
                    "%d of %d requests (%.1f %%) failed and ended at their failing call, against %.0f %% less time than predicted",
                    r.counts().failures(), r.counts().requests(), failedShare * 100, (1 - ratio) * 100));
        return null;
    }

    private static Deviation slower(RunResult r, double ratio, int cores) {
        double extraMillis = r.measuredMillis() - r.prediction().predictedMillis();
        double busy = r.resources().cpuMillis() / Math.max(1e-9, r.timing().wallMillis() * cores);
        if (busy >= 0.7) {
            // The cores were busy: say with what, per request, rather than blaming a thread count. A million virtual
            // threads on a dozen carriers are CPU-bound by creating and scheduling them, not by too many threads.
            double cpuMicrosPerRequest = r.resources().cpuMillis() * 1000 / Math.max(1, r.counts().requests());
            int pool = poolSize(r.model());
            boolean threadsOverCores = pool > cores;
            return new Deviation(ratio, threadsOverCores ? "CPU-bound: fewer cores than threads" : "CPU-bound", String.format(Locale.ROOT,
                    "%.0f ms of CPU in %.0f ms of wall time on %d cores (%.0f %% busy): %s us of CPU per request%s",
                    r.resources().cpuMillis(), r.timing().wallMillis(), cores, busy * 100, RunTables.num(cpuMicrosPerRequest),
                    threadsOverCores ? "; " + pool + " pool threads share the cores" : ""));
        }
        // thread creation explains the gap only at a believable cost per thread (tens to hundreds of us; at most 1 ms)
        if (r.resources().platformThreadsStarted() >= 100 && extraMillis * 1000 / r.resources().platformThreadsStarted() <= 1000)
            return new Deviation(ratio, "thread creation cost", String.format(Locale.ROOT,
                    "%d platform threads started; the %.0f ms over the prediction is %.0f us per thread started",
                    r.resources().platformThreadsStarted(), extraMillis, extraMillis * 1000 / r.resources().platformThreadsStarted()));
        java.util.Optional<Binding> binding = binding(r);
        if (binding.isPresent() && saturated(r, binding.get()))
            return new Deviation(ratio, "pool saturated", littlesLawText(r) + ", so requests queue"
                    + binding.get().pool().map(s -> String.format(Locale.ROOT, " for a connection (%s pool %d: peak %d in use, wait mean %s ms, p99 %s ms)",
                            s.client(), s.poolSize(), s.peakInUse(), RunTables.ms(s.meanWaitMillis()), RunTables.ms(s.p99WaitMillis()))).orElse(""));
        if (r.timeScaleDivisor() > 1)
            return new Deviation(ratio, "time-scale overhead", String.format(Locale.ROOT,
                    "fixed per-request costs do not shrink with the scale (delays / %d): %s ms over the prediction%s",
                    r.timeScaleDivisor(), RunTables.ms(extraMillis), cpuClause(r)));
        return new Deviation(ratio, "overhead outside the formula", String.format(Locale.ROOT,
                "%s ms over the prediction: scheduling, timers and warm-up that the formula leaves out%s",
                RunTables.ms(extraMillis), cpuClause(r)));
    }

    /** {@code ; the run used 11000 us of CPU per request (whole process)}: a cost the time scale does not shrink, or empty. */
    private static String cpuClause(RunResult r) {
        if (r.counts().requests() == 0 || r.resources().cpuMillis() <= 0) return "";
        return "; the run used " + RunTables.num(r.resources().cpuMillis() * 1000 / r.counts().requests())
                + " us of CPU per request (whole process)";
    }

    /** The thread count of a fixed-size pool model ({@code fixed:N}, {@code forkjoin:N}, {@code cf-blocking:N}), or 0. */
    public static int poolSize(String model) {
        Matcher m = POOL.matcher(model);
        return m.matches() ? Integer.parseInt(m.group(2)) : 0;
    }

    /**
     * The pool that binds a run's requests first, and so the one Little's law is held against: the smallest of the
     * model's threads ({@code fixed:8}) and the connection pools of a real server the run used ({@link RunResult#pools()});
     * on a tie the model's threads, which then admit no more requests than there are connections. Not a shared
     * multiplexed connection (Lettuce's), which no request holds alone. Empty when there is neither.
     *
     * @param size the pool's size
     * @param what the pool in words, e.g. {@code a pool of 8 threads}, {@code the jedis pool of 4 connections
     *             (fewer than the model's 8 threads)}
     * @param pool the connection pool's figures when one binds, else empty
     */
    public record Binding(int size, String what, java.util.Optional<dev.blocklab.result.PoolStats> pool) {}

    /**
     * Whether the binding pool was full: a connection pool by what the lab measured around its calls (every
     * connection held at once, and calls that waited for one: a request may hold no connection for part of its time,
     * or several at once, so requests in flight do not count connections); a model's threads by Little's law, the
     * requests in flight at 90 % of them or more.
     */
    private static boolean saturated(RunResult r, Binding b) {
        return b.pool().map(s -> s.peakInUse() >= s.poolSize() && (s.failedWaits() > 0 || s.p99WaitMillis() >= 1))
                .orElseGet(() -> littlesLaw(r) >= 0.9 * b.size());
    }

    /** See {@link Binding}. */
    public static java.util.Optional<Binding> binding(RunResult r) {
        int threads = poolSize(r.model());
        java.util.Optional<dev.blocklab.result.PoolStats> connections = r.pools().stream()
                .filter(s -> !s.shared() && s.poolSize() > 0)
                .min(java.util.Comparator.comparingInt(dev.blocklab.result.PoolStats::poolSize));
        if (connections.isPresent() && (threads == 0 || connections.get().poolSize() < threads)) {
            dev.blocklab.result.PoolStats c = connections.get();
            return java.util.Optional.of(new Binding(c.poolSize(), "the " + c.client() + " pool of " + c.poolSize() + " connections"
                    + (threads > 0 ? " (fewer than the model's " + threads + " threads)" : ""), connections));
        }
        return threads > 0 ? java.util.Optional.of(new Binding(threads, "a pool of " + threads + " threads", java.util.Optional.empty()))
                : java.util.Optional.empty();
    }

    /**
     * Little's law in words with its figures, e.g. {@code Little's law: 1,682 req/s x 78.8 ms mean latency = 133
     * requests in flight against a pool of 8 threads}, against the pool that binds ({@link #binding}).
     */
    public static String littlesLawText(RunResult r) {
        return String.format(Locale.ROOT, "Little's law: %s req/s x %s ms mean latency = %s requests in flight%s",
                throughput(r.timing().throughputPerSecond()), RunTables.ms(r.timing().latencyMillis().mean()), RunTables.num(littlesLaw(r)),
                binding(r).map(b -> " against " + b.what()).orElse(""));
    }

    /** A formula's throughput: whole with separators from 100 a second, else two decimals, so the product reads true. */
    private static String throughput(double perSecond) {
        return perSecond >= 100 ? dev.blocklab.load.Rates.number(perSecond) : RunTables.num(perSecond);
    }

    /**
     * Little's law, L = lambda x W: the mean number of requests in flight, from the measured throughput and mean
     * latency, those waiting in a queue included; only where no request waits is it the threads a rate needs
     * from a model that holds a thread per request.
     */
    public static double littlesLaw(RunResult r) {
        return r.timing().throughputPerSecond() * r.timing().latencyMillis().mean() / 1000.0;
    }
}
