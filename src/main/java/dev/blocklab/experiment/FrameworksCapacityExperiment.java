package dev.blocklab.experiment;

import dev.blocklab.report.RunCharts;
import dev.blocklab.report.RunTables;
import dev.blocklab.backend.BackendServer;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The highest open-loop rate each frameworks variant sustains on this machine (seed 002's use case, 200 ms
 * delays): a {@link RateSearch} per variant, each step an open run of fixed length at one rate. A rate holds when
 * every request succeeds and the p99 latency, counted from each request's intended send time, stays within
 * {@value #P99_LIMIT_FACTOR} x the variant's own unloaded latency (its prediction for one request alone).
 * Over {@code --backend http} one backend server serves the whole search, every step with a fresh client.
 */
final class FrameworksCapacityExperiment implements Experiment {
    static final double P99_LIMIT_FACTOR = 2.0;
    /** Real delays: the parsing and sorting cannot be scaled, so a divided delay would only multiply the rate. */
    private static final long TIME_SCALE = 1;

    /**
     * How to search.
     *
     * @param stepNanos  length of each step's open run
     * @param search     the rates tried
     * @param ints       ints sorted per request (longs: half as many), as in {@link FrameworksUseCase}
     * @param only       variant name prefixes to run (empty: all)
     */
    record Plan(long slowDelayNanos, long stepNanos, RateSearch search, int ints, int longs, List<String> only) {}

    /**
     * One rate tried for one variant.
     *
     * @param p99LimitMillis the p99 this step had to stay within
     */
    public record StepRow(double ratePerSecond, long requests, double successRatio, double p50Millis, double p99Millis,
                          double throughputPerSecond, double cpuMillisPerRequest, int peakPlatformThreads,
                          double p99LimitMillis, boolean sustained, String reason) {}

    /**
     * One variant's outcome.
     *
     * @param highestSustainedPerSecond the highest rate that held (0: not even the first); at least this when
     *                                  {@code lowestFailedPerSecond} is 0
     * @param atHighest                 the step at that rate, or null
     * @param failedBecause             why the lowest failing rate failed, or null
     */
    public record CapacityRow(String variant, double highestSustainedPerSecond, double lowestFailedPerSecond,
                              StepRow atHighest, String failedBecause, List<StepRow> steps, String unavailable) {}

    private final Plan fixedPlan;
    private final IntFunction<List<FrameworkVariants.Variant>> variants;

    FrameworksCapacityExperiment() { this(null, FrameworkVariants::all); }

    /** With a fixed plan and variants (tests); a null plan picks the quick or full plan. */
    FrameworksCapacityExperiment(Plan plan, IntFunction<List<FrameworkVariants.Variant>> variants) {
        this.fixedPlan = plan;
        this.variants = variants;
    }

    @Override public String name() { return "frameworks-capacity"; }

    @Override public boolean choosesBackend() { return true; }

    @Override public String description() {
        return "seed 002's use case: the highest open rate each frameworks variant sustains (all requests ok, p99 within "
                + (int) P99_LIMIT_FACTOR + " x its unloaded latency)";
    }

    static Plan plan(ExperimentSettings settings) {
        return settings.full()
                ? new Plan(200_000_000L, 10_000_000_000L, new RateSearch(10, 2, 2560, 3, 2),
                        FrameworksUseCase.DEFAULT_INTS, FrameworksUseCase.DEFAULT_LONGS, List.of())
                : new Plan(200_000_000L, 3_000_000_000L, new RateSearch(10, 2, 1280, 2, 2),
                        FrameworksUseCase.DEFAULT_INTS, FrameworksUseCase.DEFAULT_LONGS, List.of());
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        Plan plan = fixedPlan != null ? fixedPlan : plan(settings);
        FrameworksExperiment.warmUp(plan.ints(), plan.longs());
        // Every step has the same delays, and the routes depend only on them (not on the arrival): one server for all.
        try (BackendServer server = FrameworksBackends.startIfHttp(settings,
                FrameworksUseCase.workload(plan.slowDelayNanos(), new Arrival.Batch(1)), TIME_SCALE, plan.ints(), plan.longs())) {
            return search(plan, FrameworksBackends.driver(server), settings);
        }
    }

    private ExperimentResult search(Plan plan, InProcessDriver driver, ExperimentSettings settings) {
        RunSettings rs = RunSettings.DEFAULTS.withTimeScale(TIME_SCALE).withRuns(0, 1)
                .withRequestTimeoutNanos(FrameworksExperiment.REQUEST_TIMEOUT_NANOS);
        List<CapacityRow> rows = new ArrayList<>();
        for (FrameworkVariants.Variant variant : FrameworkVariants.only(variants.apply(FrameworkVariants.ARTICLE_POOL_200MS), plan.only())) {
            CapacityRow row;
            String name = FrameworkVariants.runName(variant.name());   // the name run --model takes: frameworks-virtual
            if (variant.unavailable().isPresent()) {
                row = new CapacityRow(name, 0, 0, null, null, List.of(), variant.unavailable().get());
            } else {
                Workload oneRequest = FrameworksUseCase.workload(plan.slowDelayNanos(), new Arrival.Batch(1));
                // the variant's formula: nothing is started until the first step runs
                double unloaded = unloadedMillis(oneRequest,
                        InProcessDriver.predictFromFormula(oneRequest, variant.formula(), variant.failsFast(), rs), rs);
                RateSearch.Outcome<StepRow> outcome = plan.search().run(rate -> {
                    settings.progress().update(name + " at " + dev.blocklab.load.Rates.number(rate) + " req/s");
                    Workload w = FrameworksUseCase.workload(plan.slowDelayNanos(), new Arrival.Open(rate, plan.stepNanos()));
                    FrameworksUseCase useCase = new FrameworksUseCase(plan.ints(), plan.longs());
                    try {
                        RunResult r = driver.run(w, name, context -> variant.create(context.backend(), useCase), rs,
                                line -> settings.progress().update(name + " at " + dev.blocklab.load.Rates.number(rate) + " req/s: " + line));
                        return judge(rate, r, unloaded);
                    } catch (RuntimeException | LinkageError e) {
                        // A run that throws (the variant failed to start, or broke mid-run) fails this rate; the
                        // steps before it are kept.
                        return failed(rate, e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                });
                RateSearch.Step<StepRow> high = outcome.highestStep();
                RateSearch.Step<StepRow> failed = outcome.failedStep();
                row = new CapacityRow(name, outcome.highestSustainedPerSecond(), outcome.lowestFailedPerSecond(),
                        high == null ? null : high.verdict().measurement(), failed == null ? null : failed.verdict().reason(),
                        outcome.steps().stream().map(s -> s.verdict().measurement()).toList(), null);
            }
            settings.rowSink().accept(row);
            rows.add(row);
        }
        return new ExperimentResult(name(), description(), (settings.full() ? "full" : "quick") + ", real delays, steps of "
                + Durations.format(plan.stepNanos()) + ", backend " + settings.backend().label(), settings.environment(), List.copyOf(rows),
                List.of(capacityTable(rows), stepsTable(rows)), notes(rows, plan, settings), List.of(knee(rows, "p99"), knee(rows, "p50")));
    }

    /** {@code percentile} latency against the rate at every step of each variant's search, in the order of the rates. */
    private static dev.blocklab.result.Chart knee(List<CapacityRow> rows, String percentile) {
        List<dev.blocklab.result.Series> series = rows.stream().filter(r -> r.unavailable() == null)
                .map(r -> new dev.blocklab.result.Series(r.variant(), r.steps().stream().sorted(Comparator.comparingDouble(StepRow::ratePerSecond))
                        .map(s -> new dev.blocklab.result.Series.Point(s.ratePerSecond(), percentile.equals("p99") ? s.p99Millis() : s.p50Millis())).toList()))
                .toList();
        return RunCharts.latencyAgainstRate(percentile, series, "one open run per step (a rate tried again is a point per try); latency from each request's "
                + "intended send time; a step held when every request succeeded and p99 <= " + RunTables.num(P99_LIMIT_FACTOR) + " x the variant's unloaded latency");
    }

    /** A rate at which the run threw: nothing measured, the reason kept. */
    private static RateSearch.Verdict<StepRow> failed(double rate, String reason) {
        return new RateSearch.Verdict<>(false, reason, new StepRow(rate, 0, 0, 0, 0, 0, 0, 0, 0, false, reason));
    }

    /**
     * The latency one request takes with no queue: the variant's prediction for one request alone, and at least the
     * calls' critical path. Not a step's own prediction, which at a rate above the variant's predicted capacity
     * includes the queue that builds (a limit taken from each rate's own prediction grew with the queue, and a
     * 16-thread pool that completed 36 requests a second passed at 200; one taken from the search's first rate did
     * the same wherever that rate is above the predicted capacity, as 10 a second is for {@code disruptor-stages},
     * 4.5 a second once a backlog crosses its stages).
     */
    static double unloadedMillis(Workload oneRequest, dev.blocklab.model.Prediction alone, RunSettings rs) {
        return Math.max(alone.millis(), oneRequest.graph().criticalPathNanos(rs.timeScaleDivisor()) / 1e6);
    }

    /** A step holds when every request succeeded and p99 stayed within the factor of the unloaded latency. */
    static RateSearch.Verdict<StepRow> judge(double rate, RunResult r, double unloaded) {
        double limit = P99_LIMIT_FACTOR * unloaded;
        double p99 = r.timing().latencyMillis().p99();
        String reason = null;
        if (r.counts().successes() < r.counts().requests())
            reason = String.format(Locale.ROOT, "%s %% ok (%d of %d failed or timed out)", RunTables.pct(r.successRatio()),
                    r.counts().requests() - r.counts().successes(), r.counts().requests());
        else if (p99 > limit)
            reason = String.format(Locale.ROOT, "p99 %s ms > %s ms (%.0f x unloaded %s ms)", RunTables.ms(p99), RunTables.ms(limit),
                    P99_LIMIT_FACTOR, RunTables.ms(unloaded));
        StepRow step = new StepRow(rate, r.counts().requests(), r.successRatio(), r.timing().latencyMillis().p50(), p99, r.timing().throughputPerSecond(),
                FrameworksExperiment.cpuPerRequest(r), r.resources().peakPlatformThreads(), limit, reason == null, reason);
        return new RateSearch.Verdict<>(reason == null, reason, step);
    }

    private static Table capacityTable(List<CapacityRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (CapacityRow row : rows) {
            if (row.unavailable() != null) {
                cells.add(List.of(row.variant(), "unavailable: " + row.unavailable(), "", "", "", "", "", ""));
                continue;
            }
            String highest = row.highestSustainedPerSecond() == 0 ? "< " + RunTables.num(row.lowestFailedPerSecond())
                    : (row.lowestFailedPerSecond() == 0 ? ">= " : "") + RunTables.num(row.highestSustainedPerSecond());
            StepRow h = row.atHighest();
            cells.add(List.of(row.variant(), highest,
                    row.lowestFailedPerSecond() == 0 ? "-" : RunTables.num(row.lowestFailedPerSecond()),
                    h == null ? "-" : RunTables.ms(h.p50Millis()), h == null ? "-" : RunTables.ms(h.p99Millis()),
                    h == null ? "-" : RunTables.ms(h.cpuMillisPerRequest()), h == null ? "-" : String.valueOf(h.peakPlatformThreads()),
                    row.failedBecause() == null ? "-" : row.failedBecause()));
        }
        return new Table("Highest sustained open rate per variant (200 ms delays; latency from each request's intended send time)",
                List.of("variant", "sustained req/s", "failed at req/s", "p50 ms", "p99 ms", "cpu ms/req", "peak threads",
                        "why the next rate failed"), cells);
    }

    private static Table stepsTable(List<CapacityRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (CapacityRow row : rows) {
            for (StepRow s : row.steps()) {
                cells.add(List.of(row.variant(), RunTables.num(s.ratePerSecond()), String.valueOf(s.requests()), RunTables.pct(s.successRatio()),
                        RunTables.ms(s.p50Millis()), RunTables.ms(s.p99Millis()), RunTables.ms(s.p99LimitMillis()),
                        RunTables.num(s.throughputPerSecond()), s.sustained() ? "held" : "failed: " + s.reason()));
            }
        }
        return new Table("Every step, in the order run", List.of("variant", "rate req/s", "requests", "ok %", "p50 ms", "p99 ms",
                "p99 limit ms", "req/s done", "verdict"), cells);
    }

    private static List<String> notes(List<CapacityRow> rows, Plan plan, ExperimentSettings settings) {
        List<String> notes = new ArrayList<>();
        notes.add(FrameworksBackends.note(settings));
        RateSearch s = plan.search();
        notes.add(String.format(Locale.ROOT, "Search: open runs of %s at %s req/s, multiplying the rate by %s until one fails (at most %s req/s), then %d halvings of the gap "
                        + "between the last rate that held and the first that failed; a rate fails only after %d runs at it failed in a row. A rate holds when every request succeeds and p99 <= %.0f x the "
                        + "variant's unloaded latency (its prediction for one request alone: the calls' critical path, in series for sequential).",
                Durations.format(plan.stepNanos()), RunTables.num(s.startPerSecond()), RunTables.num(s.factor()), RunTables.num(s.maxPerSecond()), s.refinements(), s.attempts(), P99_LIMIT_FACTOR));
        notes.add("Open loop: requests are sent on schedule whatever the variant does, and latency counts from each request's intended send time, "
                + "so a variant that falls behind shows it in p99. Resolution: a variant overloaded by x % queues about x % of the step's length, so "
                + "over a step of " + Durations.format(plan.stepNanos()) + " a small overload (under about its unloaded latency / step length) can still pass; "
                + "the search's own steps are coarser than that. Each variant is judged against its own unloaded latency (the 'p99 limit' column), so "
                + "the serial variants (sequential, disruptor-stages) get a larger allowance in milliseconds.");
        rows.stream().filter(r -> r.unavailable() == null).max(Comparator.comparingDouble(CapacityRow::highestSustainedPerSecond))
                .ifPresent(best -> notes.add("Highest sustained rate: " + best.variant() + " at " + RunTables.num(best.highestSustainedPerSecond())
                        + " req/s (the search's resolution is the gap between 'sustained' and 'failed at')."));
        notes.add("Every variant shares the same CPU budget: about 4-14 ms of process CPU per request here over the simulated backend, most of it Jackson parsing"
                + (settings.backend() == ExperimentSettings.CallBackend.HTTP ? ", more over HTTP, where the server and the client move the JSON through sockets on the same cores" : "")
                + ", so on these cores no variant can "
                + "go much above cores / CPU per request; variants whose threads wait (pools, the original Disruptor stages) stop earlier, at threads / thread-time per request.");
        notes.add("One short run per step on a shared machine: a single noisy step can end a search early; the steps table shows every step.");
        return notes;
    }
}
