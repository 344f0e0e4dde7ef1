package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.LabelledRun;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
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
import java.util.Map;
import java.util.Optional;

/**
 * Seed 002: the frameworks comparison. Every variant of {@link FrameworkVariants} under a closed loop of 50
 * users (what the article's JMeter plan did) and an open rate of 50 requests a second, with 200 ms and 400 ms
 * downstream delays, beside the article's averages.
 */
final class FrameworksExperiment implements Experiment {
    /** The article's average latency at 50 users, 200 ms, by variant family (REFERENCE.md section 3). */
    static final Map<String, Double> ARTICLE_200MS = ArticleFigures.millis("sequential 2100, invokeall 1800, supplyasync 1800, "
            + "cf-suspended 3500, rx-blocking 2300, disruptor-stages 3000, disruptor-async 3500, pekko-blocking 3000");
    /** ... and at 400 ms. */
    static final Map<String, Double> ARTICLE_400MS = ArticleFigures.millis("sequential 2600, invokeall 3000");
    /**
     * The article's "Thread Pool size for I/O Tasks" of its two Disruptor rows, by the variant that runs each: its
     * blocked request thread on the chained wiring, 11, and its suspended response, 12. It timed no third wiring.
     */
    static final Map<String, Integer> ARTICLE_DISRUPTOR_THREADS = Map.of("disruptor-stages", 11, "disruptor-async", 12);

    /**
     * How much to run.
     *
     * @param timeScale           every delay divided by this
     * @param users               closed-loop users
     * @param closedDurationNanos closed-loop duration, before scaling
     * @param ratePerSecond       open rate, before scaling
     * @param openDurationNanos   open-rate duration, before scaling
     * @param combinations        which (arrival, delay) pairs to run
     * @param ints                CPU step's int list size
     * @param longs               CPU step's long list size
     * @param only                variant names to run (empty: all)
     */
    record Plan(long timeScale, int users, long closedDurationNanos, double ratePerSecond, long openDurationNanos,
                List<Combination> combinations, int ints, int longs, List<String> only) {}

    /** One (arrival, delay) pair. */
    record Combination(boolean closed, long slowDelayNanos) {
        String label() {
            return (closed ? "closed" : "open") + " " + Durations.format(slowDelayNanos);
        }
    }

    /**
     * One row: a variant under one combination. Its JSON carries the run's fields at the top level, plus these.
     *
     * @param variant       the variant's name
     * @param combination   e.g. {@code closed 200ms}
     * @param run           what was measured, or null when the variant was unavailable
     * @param articleMillis the article's average at full scale, or null where it gave none
     * @param cpuStepOn     the kinds of thread the merges (with the CPU step) ran on
     * @param unavailable   why the variant did not run, or null
     * @param why           one line on the difference from the article (or on what the row shows)
     */
    public record FrameworksRow(String variant, String combination, @JsonUnwrapped RunResult run, Double articleMillis,
                                String cpuStepOn, String unavailable, String why) {}

    /** A request still running after this long (real time, whatever the scale) fails as timed out. */
    static final long REQUEST_TIMEOUT_NANOS = 15_000_000_000L;

    private final Plan fixedPlan;
    private final java.util.function.IntFunction<List<FrameworkVariants.Variant>> variants;

    FrameworksExperiment() { this(null); }

    /** With a fixed plan (tests); null picks the quick or full plan from the settings. */
    FrameworksExperiment(Plan plan) { this(plan, FrameworkVariants::all); }

    /** With a fixed plan and the variants to run, by I/O pool size (tests). */
    FrameworksExperiment(Plan plan, java.util.function.IntFunction<List<FrameworkVariants.Variant>> variants) {
        this.fixedPlan = plan;
        this.variants = variants;
    }

    @Override public String name() { return "frameworks"; }

    @Override public boolean choosesBackend() { return true; }

    @Override public String description() {
        return "seed 002: one use case under ExecutorService, CompletableFuture, RxJava, Reactor, Vert.x's event loop, Disruptor, Pekko, virtual threads and structured concurrency";
    }

    static Plan plan(ExperimentSettings settings) {
        long s = 1_000_000_000L;
        if (settings.full()) {
            return new Plan(settings.timeScale(), 50, 30 * s, 50, 30 * s,
                    List.of(new Combination(true, 200_000_000L), new Combination(false, 200_000_000L),
                            new Combination(true, 400_000_000L), new Combination(false, 400_000_000L)),
                    FrameworksUseCase.DEFAULT_INTS, FrameworksUseCase.DEFAULT_LONGS, List.of());
        }
        // The JSON parsing and the sort are not scaled, so dividing the delays would multiply the open rate
        // and the closed loop's request rate by the divisor and turn every variant CPU-bound: quick runs keep
        // real delays and shorten the runs instead.
        return new Plan(1, 50, 3 * s, 50, 3 * s,
                List.of(new Combination(true, 200_000_000L), new Combination(false, 200_000_000L),
                        new Combination(true, 400_000_000L)),
                FrameworksUseCase.DEFAULT_INTS, FrameworksUseCase.DEFAULT_LONGS, List.of());
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        Plan plan = fixedPlan != null ? fixedPlan : plan(settings);
        warmUp(plan);
        RunSettings rs = RunSettings.DEFAULTS.withTimeScale(plan.timeScale()).withRuns(0, 1)
                .withRequestTimeoutNanos(REQUEST_TIMEOUT_NANOS * plan.timeScale());
        List<FrameworksRow> rows = new ArrayList<>();
        for (Combination combination : plan.combinations()) {
            int pool = combination.slowDelayNanos() >= 400_000_000L ? FrameworkVariants.ARTICLE_POOL_400MS : FrameworkVariants.ARTICLE_POOL_200MS;
            Arrival arrival = combination.closed()
                    ? new Arrival.Closed(plan.users(), plan.closedDurationNanos())
                    : new Arrival.Open(plan.ratePerSecond(), plan.openDurationNanos());
            Workload workload = FrameworksUseCase.workload(combination.slowDelayNanos(), arrival);
            try (BackendServer server = FrameworksBackends.startIfHttp(settings, workload, plan.timeScale(), plan.ints(), plan.longs())) {
                InProcessDriver driver = FrameworksBackends.driver(server);
                for (FrameworkVariants.Variant variant : FrameworkVariants.only(variants.apply(pool), plan.only())) {
                    FrameworksRow row = measure(variant, combination, workload, driver, rs, plan, settings);
                    settings.rowSink().accept(row);
                    rows.add(row);
                }
            }
        }
        return new ExperimentResult(name(), description(), scaleLabel(settings, plan), settings.environment(), List.copyOf(rows),
                List.of(mainTable(rows, plan), whyTable(rows)), notes(rows, plan, settings)).withCharts(charts(rows));
    }

    /** One variant under one combination, or a row saying why it could not run. */
    private static FrameworksRow measure(FrameworkVariants.Variant variant, Combination combination, Workload workload,
                                         InProcessDriver driver, RunSettings rs, Plan plan, ExperimentSettings settings) {
        String name = FrameworkVariants.runName(variant.name());   // the name run --model takes: frameworks-virtual
        Double article = combination.closed() ? articleMillis(name, combination.slowDelayNanos()) : null;
        if (variant.unavailable().isPresent()) {
            return new FrameworksRow(name, combination.label(), null, article, "-", variant.unavailable().get(),
                    "unavailable: " + variant.unavailable().get());
        }
        FrameworksUseCase useCase = new FrameworksUseCase(plan.ints(), plan.longs());
        try {
            RunResult r = driver.run(workload, name, context -> variant.create(context.backend(), useCase), rs,
                    line -> settings.progress().update(combination.label() + " " + line));
            return new FrameworksRow(name, combination.label(), r, article, useCase.cpuPlacesLabel(), null,
                    why(name, combination, r, article, plan));
        } catch (RuntimeException | LinkageError e) {
            String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
            return new FrameworksRow(name, combination.label(), null, article, "-", reason, "unavailable: " + reason);
        }
    }

    private static Double articleMillis(String variant, long slowDelayNanos) {
        String family = family(variant);
        return (slowDelayNanos >= 400_000_000L ? ARTICLE_400MS : ARTICLE_200MS).get(family);
    }

    /**
     * A variant's name without its pool size, without the {@code jaxrs-} of the same code served by Tomcat and
     * without the {@code frameworks-} of a name an engine model shares.
     */
    static String family(String variant) {
        String name = variant.startsWith("jaxrs-") ? variant.substring("jaxrs-".length()) : variant;
        if (name.startsWith(FrameworkVariants.CLASH_PREFIX)) name = name.substring(FrameworkVariants.CLASH_PREFIX.length());
        return name.contains(":") ? name.substring(0, name.indexOf(':')) : name;
    }

    /** Runs the merge a few dozen times so that the first variant measured does not pay for the JIT alone. */
    private static void warmUp(Plan plan) { warmUp(plan.ints(), plan.longs()); }

    /** Runs the merge a few dozen times, with lists of these sizes to sort. */
    static void warmUp(int ints, int longs) {
        FrameworksUseCase useCase = new FrameworksUseCase(ints, longs);
        Workload w = FrameworksUseCase.workload(0, new Arrival.Batch(1));
        for (int i = 0; i < 150; i++) {
            var request = new dev.blocklab.workload.Request(i, w.graph(), 0, 1);
            useCase.postsAndComments(request, dev.blocklab.frameworks.PlaceholderData.json("posts"), dev.blocklab.frameworks.PlaceholderData.json("comments"));
            useCase.albumsAndPhotos(request, dev.blocklab.frameworks.PlaceholderData.json("albums"), dev.blocklab.frameworks.PlaceholderData.json("photos"));
        }
    }

    /** The standard run charts, one set per combination (closed or open, 200 or 400 ms), variants side by side. */
    private static List<dev.blocklab.result.Chart> charts(List<FrameworksRow> rows) {
        List<dev.blocklab.result.Chart> charts = new ArrayList<>();
        for (String combination : rows.stream().map(FrameworksRow::combination).distinct().toList()) {
            List<LabelledRun> runs = rows.stream().filter(r -> r.combination().equals(combination) && r.run() != null)
                    .map(r -> new LabelledRun(r.variant(), r.run())).toList();
            if (runs.isEmpty()) continue;
            charts.add(RunCharts.latencyByRun(combination, runs));
            charts.add(RunCharts.successRatio(combination, runs));
            charts.add(RunCharts.threads(combination, runs));
            charts.add(RunCharts.costPerRequest(combination, runs));
        }
        return charts;
    }

    private static Table mainTable(List<FrameworksRow> rows, Plan plan) {
        List<List<String>> cells = new ArrayList<>();
        for (FrameworksRow row : rows) {
            String article = row.articleMillis() == null ? "-" : RunTables.ms(row.articleMillis() / plan.timeScale());
            RunResult r = row.run();
            if (r == null) {
                cells.add(List.of(row.combination(), row.variant(), "unavailable: " + row.unavailable(), "", "", "", "", "", "", "", "", "", article));
                continue;
            }
            cells.add(List.of(row.combination(), row.variant(), String.valueOf(r.counts().requests()), RunTables.pct(r.successRatio()),
                    RunTables.ms(r.timing().latencyMillis().mean()), RunTables.ms(r.timing().latencyMillis().p50()), RunTables.ms(r.timing().latencyMillis().p99()),
                    RunTables.num(r.timing().throughputPerSecond()), RunTables.ms(cpuPerRequest(r)),
                    String.valueOf(r.resources().peakPlatformThreads()), String.valueOf(r.resources().platformThreadsStarted()), row.cpuStepOn(), article));
        }
        return new Table("Seed 002 use case per variant (latency from each request's intended start)",
                List.of("load, delay", "variant", "requests", "ok %", "avg ms", "p50 ms", "p99 ms", "req/s", "cpu ms/req",
                        "peak threads", "threads started", "cpu step on", "article avg ms"), cells);
    }

    private static Table whyTable(List<FrameworksRow> rows) {
        return new Table("One line on each row", List.of("load, delay", "variant", "why"),
                rows.stream().map(r -> List.of(r.combination(), r.variant(), r.why())).toList());
    }

    static double cpuPerRequest(RunResult r) { return r.counts().requests() == 0 ? 0 : r.resources().cpuMillis() / r.counts().requests(); }

    /**
     * One line on a row: the variant's thread limit (threads over the thread-time one request holds), the CPU
     * limit, and what the closed loop's average must be by Little's law; beside the article, the throughput its
     * average implies.
     */
    static String why(String variant, Combination c, RunResult r, Double article, Plan plan) {
        int cores = Runtime.getRuntime().availableProcessors();
        double cpu = cpuPerRequest(r);
        double callsMillis = callsMillis(c, plan);
        String family = family(variant);
        int pool = variant.contains(":") ? Integer.parseInt(variant.substring(variant.indexOf(':') + 1)) : 0;
        String limit = switch (family) {
            case "invokeall", "supplyasync", "rx-blocking", "cf-suspended" -> String.format(Locale.ROOT,
                    "%d threads / %s ms of calls per request = %.0f req/s at most", pool, RunTables.ms(callsMillis), pool * 1000 / callsMillis);
            case "disruptor-stages" -> String.format(Locale.ROOT, "2 threads a stage / %s ms = %.0f req/s at most, and 9 handlers spin while waiting",
                    RunTables.ms(c.slowDelayNanos() / 1e6 / plan.timeScale()), 2 * 1000 / (c.slowDelayNanos() / 1e6 / plan.timeScale()));
            case "sequential" -> String.format(Locale.ROOT, "calls in series: %s ms; 200 request threads allow %.0f req/s",
                    RunTables.ms(callsMillis), 200 * 1000 / callsMillis);
            case "virtual", "structured" -> "no thread limit (virtual threads)";
            case "pekko-blocking", "disruptor-latch" -> "no limit but the 200 waiting request threads";
            case "vertx-event-loop" -> String.format(Locale.ROOT, "no thread waits; the merges hold the %d event loops, so CPU is the limit", cores);
            default -> "no thread waits";
        };
        String cpuLimit = String.format(Locale.ROOT, "CPU %s ms/req = %.0f req/s on %d cores", RunTables.ms(cpu),
                cpu <= 0 ? 0 : cores * 1000.0 / cpu, cores);
        if (!c.closed()) {
            var latency = r.timing().latencyMillis();
            double offered = plan.ratePerSecond() * plan.timeScale();
            return String.format(Locale.ROOT, "%s offered %s req/s, completed %s req/s over the schedule (p50 %s ms, fastest %s ms); %s; %s",
                    keptUp(r, offered) ? "sustained" : "NOT sustained:", RunTables.num(offered),
                    RunTables.num(completedPerSecond(r)), RunTables.ms(latency.p50()), RunTables.ms(latency.min()), limit, cpuLimit);
        }
        String line = String.format(Locale.ROOT, "%d users / %s req/s = %s ms (measured average %s ms); %s; %s", plan.users(),
                RunTables.num(r.timing().throughputPerSecond()), RunTables.ms(plan.users() * 1000.0 / Math.max(1e-9, r.timing().throughputPerSecond())),
                RunTables.ms(r.timing().latencyMillis().mean()), limit, cpuLimit);
        if (article != null) line += String.format(Locale.ROOT, "; article: 50 / %.0f ms = %.1f req/s", article, 50_000.0 / article);
        else if (NOT_TIMED.containsKey(family)) line += "; article: - (the article did not time it)";
        return line;
    }

    /**
     * The article's variants it did not time, with the row it timed instead: its '-' is no missing figure.
     */
    static final Map<String, String> NOT_TIMED = Map.of(
            "disruptor-latch", "its two Disruptor rows ran the chained wiring (disruptor-stages) and the suspended response (disruptor-async)",
            "pekko-async", "its Akka row blocked the request thread (pekko-blocking)");

    /**
     * What an article figure of '-' on a closed row means, for the variants of {@code rows}: the article did not
     * time it ({@link #NOT_TIMED}), has no such variant, or timed it at 200 ms only; empty when every closed row has a
     * figure.
     */
    static Optional<String> articleGapNote(List<FrameworksRow> rows) {
        List<FrameworksRow> gaps = rows.stream().filter(r -> r.articleMillis() == null && r.combination().startsWith("closed")).toList();
        if (gaps.isEmpty()) return Optional.empty();
        List<String> families = gaps.stream().map(r -> family(r.variant())).distinct().toList();
        List<String> parts = new ArrayList<>();
        families.stream().filter(NOT_TIMED::containsKey).forEach(f -> parts.add("the article did not time " + f + " (" + NOT_TIMED.get(f) + ")"));
        List<String> absent = families.stream().filter(f -> !NOT_TIMED.containsKey(f) && !ARTICLE_200MS.containsKey(f)).toList();
        if (!absent.isEmpty()) parts.add("it has no variant like " + String.join(", ", absent));
        if (gaps.stream().anyMatch(r -> ARTICLE_200MS.containsKey(family(r.variant()))))
            parts.add("at 400 ms it timed " + String.join(" and ", ARTICLE_400MS.keySet().stream().sorted().toList()) + " only");
        return Optional.of("'-' in 'article avg ms' on a closed row is no missing figure: " + String.join("; ", parts) + ".");
    }

    /**
     * The Disruptor rows' threads beside the article's pools for the same wiring ({@link #ARTICLE_DISRUPTOR_THREADS});
     * empty when no Disruptor variant ran.
     */
    static Optional<String> disruptorNote(List<FrameworksRow> rows) {
        List<String> families = rows.stream().map(r -> family(r.variant())).distinct().filter(f -> FrameworkVariants.disruptorThreads(f) > 0).toList();
        if (families.isEmpty()) return Optional.empty();
        String each = families.stream().map(f -> f + " " + FrameworkVariants.disruptorThreads(f) + (ARTICLE_DISRUPTOR_THREADS.containsKey(f)
                ? " (the article's " + ARTICLE_DISRUPTOR_THREADS.get(f) + ")" : " (not timed by the article)")).collect(java.util.stream.Collectors.joining(", "));
        return Optional.of("Disruptor threads here beside the article's pools: " + each + ". The article's 11 ran its chained wiring with "
                + "the request thread blocked, its 12 the suspended response. Here disruptor-stages has 2 handler threads a stage for the four "
                + "calls and the merge and 1 for the reply; disruptor-latch and disruptor-async a dispatch, two merges and a reply, their "
                + "calls holding no thread.");
    }

    /**
     * An open run kept up with its rate: every request succeeded, and they completed at 95 % of the offered rate
     * or more over the schedule ({@link #completedPerSecond}). A variant that cannot keep up lets a backlog grow and
     * drains it after the last send, so its requests spread over a longer time. Its prediction includes that queue,
     * so it cannot be the yardstick: invokeall:16, completing 35 of 50 requests a second, passed against it.
     */
    static boolean keptUp(RunResult r, double offeredPerSecond) {
        return r.successRatio() > 0.999 && completedPerSecond(r) >= 0.95 * offeredPerSecond;
    }

    /**
     * Requests completed per second of the schedule: the requests over the wall time less the fastest request's
     * latency (the wall time runs from the first send to the last completion, so a run that kept up spends one
     * unloaded latency past its schedule, the time the last request takes).
     */
    static double completedPerSecond(RunResult r) {
        double millis = r.timing().wallMillis() - r.timing().latencyMillis().min();
        return millis <= 0 ? 0 : r.counts().requests() * 1000.0 / millis;
    }

    /** True when a row of {@code rows} is variant {@code name} (its registry name, with or without a pool size). */
    private static boolean ran(List<FrameworksRow> rows, String name) {
        return rows.stream().map(r -> r.variant().replaceFirst("^frameworks-", "").replaceFirst(":\\d+$", "")).anyMatch(name::equals);
    }

    /**
     * Why the article's averages are higher than the closed rows here, on the one row where no pool binds:
     * {@code sequential} with 200 request threads for 50 users, whose average is then one request's own time. The
     * article's comments and photos came from the public JSONPlaceholder service over the internet; here from a
     * local service at 20 ms. Empty when the closed 200 ms sequential row did not run.
     */
    static java.util.Optional<String> sequentialGap(List<FrameworksRow> rows, Plan plan) {
        Combination closed200 = new Combination(true, FrameworksUseCase.SLOW_DELAY_NANOS);
        return rows.stream()
                .filter(r -> r.run() != null && r.articleMillis() != null && family(r.variant()).equals("sequential")
                        && !r.variant().startsWith("jaxrs-") && r.combination().equals(closed200.label()))
                .findFirst()
                .map(r -> {
                    double callsMillis = callsMillis(closed200, plan);
                    double articleSlowMillis = 2.0 * FrameworksUseCase.SLOW_DELAY_NANOS / 1e6 / plan.timeScale();
                    double articleMillis = r.articleMillis() / plan.timeScale(), measured = r.run().timing().latencyMillis().mean();
                    return String.format(Locale.ROOT, "Why the article's averages are higher: with %d users and 200 request threads no pool "
                                    + "binds sequential, so its average is one request's own time. The article's %s ms less its two %s ms calls "
                                    + "leaves %s ms for comments and photos, fetched from the public JSONPlaceholder service over the internet "
                                    + "(5,000 photos in one answer), and the merges' CPU on 8 cores; here the two are a local service at %s ms "
                                    + "each, and the measured %s ms less %s ms of calls leaves %s ms of CPU and waiting for %d cores.",
                            plan.users(), RunTables.ms(articleMillis), RunTables.ms(articleSlowMillis / 2), RunTables.ms(articleMillis - articleSlowMillis),
                            RunTables.ms(FrameworksUseCase.FAST_DELAY_NANOS / 1e6 / plan.timeScale()), RunTables.ms(measured),
                            RunTables.ms(callsMillis), RunTables.ms(Math.max(0, measured - callsMillis)), Runtime.getRuntime().availableProcessors());
                });
    }

    /** One request's four calls one after another, in milliseconds at the plan's scale: two slow, two fast. */
    private static double callsMillis(Combination c, Plan plan) {
        return (2.0 * c.slowDelayNanos() + 2.0 * FrameworksUseCase.FAST_DELAY_NANOS) / 1e6 / plan.timeScale();
    }

    /** Why each row's requests failed, which its ok % alone does not say: a line per row and cause. */
    static List<String> failureNotes(List<FrameworksRow> rows) {
        List<String> notes = new ArrayList<>();
        for (FrameworksRow r : rows) {
            if (r.run() == null) continue;
            r.run().counts().failureCauses().forEach((cause, n) ->
                    notes.add(r.variant() + " at " + r.combination() + ": " + n + " x " + cause + "."));
        }
        return notes;
    }

    private static String scaleLabel(ExperimentSettings settings, Plan plan) {
        return (settings.full() ? "full" : "quick") + ", " + ExperimentSettings.delays(plan.timeScale())
                + ", closed " + Durations.format(plan.closedDurationNanos()) + ", open " + Durations.format(plan.openDurationNanos())
                + ", backend " + settings.backend().label();
    }

    private static List<String> notes(List<FrameworksRow> rows, Plan plan, ExperimentSettings settings) {
        List<String> notes = new ArrayList<>();
        notes.add(FrameworksBackends.note(settings));
        notes.add("Use case: posts and albums delayed 200 ms (or 400 ms), comments and photos 20 ms; every call answers its whole list as JSON (100 posts, 500 comments, 100 albums, 5,000 photos), parsed with Jackson; the merge keeps one user's items and sorts "
                + plan.ints() + " ints and " + plan.longs() + " longs per request. CPU ms/req is the whole process's CPU time over completed requests.");
        String requestThreads = "Request threads: a modelled Tomcat pool of up to 200 platform threads";
        if (ran(rows, "virtual") || ran(rows, "structured")) requestThreads += "; virtual and structured run each request on a virtual thread";
        if (ran(rows, "vertx-event-loop")) requestThreads += "; vertx-event-loop has none, each request runs on one of its event loops";
        notes.add(requestThreads + ". Pool sizes: 16 at 200 ms, 24 at 400 ms, as the article." + disruptorNote(rows).map(n -> " " + n).orElse(""));
        notes.add("Combinations run: " + plan.combinations().stream().map(Combination::label).toList()
                + (plan.combinations().size() < 4 ? " (quick: the open rate at 400 ms is left out; --full runs all four for 30 s each)" : "") + ".");
        notes.add("The article's figures are averages of a JMeter closed loop of 50 threads (its \"50 req/sec\") on 8 cores; they sit beside the closed rows only.");
        articleGapNote(rows).ifPresent(notes::add);
        sequentialGap(rows, plan).ifPresent(notes::add);
        for (Combination c : plan.combinations()) {
            rows.stream().filter(r -> r.combination().equals(c.label()) && r.run() != null && r.run().successRatio() > 0.999)
                    .min(Comparator.comparingDouble(r -> r.run().timing().latencyMillis().mean()))
                    .ifPresent(best -> notes.add("Lowest average at " + c.label() + ": " + best.variant() + " ("
                            + RunTables.ms(best.run().timing().latencyMillis().mean()) + " ms, " + RunTables.num(best.run().timing().throughputPerSecond()) + " req/s)."));
        }
        notes.addAll(failureNotes(rows));
        List<String> missing = rows.stream().filter(r -> r.unavailable() != null).map(r -> r.variant() + ": " + r.unavailable()).distinct().toList();
        if (!missing.isEmpty()) notes.add("Unavailable: " + String.join("; ", missing) + ".");
        if (ran(rows, "disruptor-stages"))
            notes.add("Disruptor's wait strategies spin (Thread.onSpinWait) while a handler waits for the handler before it; with chained stages that block on calls, that spinning shows in disruptor-stages' CPU per request.");
        notes.add("Reading a closed row: in steady state its average is users / throughput (Little's law), so it is set by the tightest limit: a pool's threads over the time one request holds them, the CPU, or the machine's other load (the gap when neither limit is reached). "
                + "A short run is not all steady state: req/s counts over the whole wall time, the users' first requests and the drain of their last ones included, so users / req/s reads above the measured average (by 2-21 % in quick runs of 3 s whose requests take 0.5-1.8 s).");
        notes.add("Reading an open row: 'completed over the schedule' is the requests over the wall time less the fastest request's latency (the time the last request needs after the last send), the figure 'sustained' is judged on; the table's req/s counts over the whole wall time.");
        notes.add("Figures come from one short run per row on a machine shared with other work: compare rows of one run, as ratios, and rerun before trusting a small gap.");
        notes.add("Quick runs keep real delays: the JSON parsing and sorting cannot be scaled, so dividing the delays would multiply the request rate by the divisor.");
        return notes;
    }
}
