package dev.blocklab.experiment;

import dev.blocklab.audit.RunWindow;
import dev.blocklab.report.RunTables;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Seed 002 on its own stack beside the emulation: each JAX-RS variant in an embedded Tomcat with Jersey
 * ({@link FrameworkVariants#servlet}) right after the in-process variant whose code it runs, under the frameworks
 * comparison's plan (50 closed-loop users, an open rate, 200 and 400 ms), plus a table of the pairs' ratios.
 */
final class FrameworksServletExperiment implements Experiment {
    /** Over this, a pair's difference is flagged and must be explained. */
    static final double FLAG_RATIO = 1.20;
    /** How long each warm-up run lasts, before its time scale. */
    static final long WARM_UP_NANOS = 20_000_000_000L;
    static final long WARM_UP_TIME_SCALE = 10;

    @Override public String name() { return "frameworks-servlet"; }

    @Override public boolean choosesBackend() { return true; }

    @Override public String description() {
        return "seed 002 on Tomcat 11 + Jersey 3 (JAX-RS, 200 request threads, over HTTP) beside the in-process variants that emulate it";
    }

    /** Each servlet variant after its in-process counterpart. */
    static List<FrameworkVariants.Variant> pairs(int ioPoolSize) {
        List<FrameworkVariants.Variant> out = new ArrayList<>();
        for (FrameworkVariants.Variant servlet : FrameworkVariants.servlet(ioPoolSize)) {
            out.add(FrameworkVariants.named(inProcessName(servlet.name()), ioPoolSize));
            out.add(servlet);
        }
        return List.copyOf(out);
    }

    static String inProcessName(String servletVariant) {
        return servletVariant.substring(servletVariant.indexOf('-') + 1);
    }

    private final FrameworksExperiment.Plan fixedPlan;

    FrameworksServletExperiment() { this(null); }

    /** With a fixed plan and no warm-up (tests); null picks the frameworks comparison's quick or full plan and warms up. */
    FrameworksServletExperiment(FrameworksExperiment.Plan plan) { this.fixedPlan = plan; }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        if (fixedPlan == null) warmUp(settings);
        ExperimentResult r = new FrameworksExperiment(fixedPlan, FrameworksServletExperiment::pairs).run(settings);
        List<FrameworksExperiment.FrameworksRow> rows = r.rows().stream()
                .map(FrameworksExperiment.FrameworksRow.class::cast).toList();
        List<Table> tables = new ArrayList<>();
        tables.add(pairTable(rows));
        tables.addAll(r.tables());
        List<String> notes = new ArrayList<>(List.of(
                "jaxrs-* rows: Tomcat 11.0.14 (one HTTP/1.1 connector on 127.0.0.1, an executor of at most 200 request threads, 10 kept) with Jersey 3.1.11's servlet; "
                        + "the resources run the in-process variant's own code, so a pair differs by the container, the HTTP hop (JDK HttpClient, HTTP/1.1, "
                        + "latency from the closed loop's submit to the response body) and Tomcat's real pool in place of the modelled one. "
                        + "CPU and threads are the whole process's: for jaxrs rows they include Tomcat, Jersey and the client.",
                "A pair's ratio over " + String.format(Locale.ROOT, "%.0f %%", (FLAG_RATIO - 1) * 100)
                        + " is flagged; docs/frameworks.md traces the flagged ones to their configuration difference."));
        notes.addAll(r.notes());
        return new ExperimentResult(name(), description(), r.scale(), r.environment(), r.rows(), tables, notes, r.charts());
    }

    /**
     * A discarded closed-loop run of every JAX-RS resource, delays / {@value #WARM_UP_TIME_SCALE} so that each makes
     * several hundred requests, so the first measured pair does not pay alone for compiling Tomcat, Jersey and the
     * HTTP client: measured without it, the first Tomcat row spent 40 to 80 ms of CPU per request against 10 to 20
     * in the later ones (a few hundred requests to a trivial resource in each server's start-up are not enough).
     */
    private static void warmUp(ExperimentSettings settings) {
        FrameworksExperiment.warmUp(FrameworksUseCase.DEFAULT_INTS, FrameworksUseCase.DEFAULT_LONGS);
        Workload workload = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Closed(50, WARM_UP_NANOS));
        RunSettings rs = RunSettings.DEFAULTS.withRuns(0, 1).withTimeScale(WARM_UP_TIME_SCALE);
        for (FrameworkVariants.Variant variant : FrameworkVariants.servlet(FrameworkVariants.ARTICLE_POOL_200MS)) {
            if (variant.unavailable().isPresent()) return;
            FrameworksUseCase useCase = new FrameworksUseCase();
            // named as a warm-up, so that under --audit its blockings are not counted in the variant's own row
            new InProcessDriver().run(workload, RunWindow.warmUp(variant.name()), c -> variant.create(c.backend(), useCase), rs,
                    line -> settings.progress().update("warm-up (discarded) " + variant.name() + " " + line));
        }
    }

    /** The emulation beside the real stack: mean, p99 and throughput of each pair, and their ratios. */
    static Table pairTable(List<FrameworksExperiment.FrameworksRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (FrameworksExperiment.FrameworksRow servlet : rows) {
            if (!servlet.variant().startsWith("jaxrs-")) continue;
            Optional<FrameworksExperiment.FrameworksRow> emulated = rows.stream()
                    .filter(e -> e.combination().equals(servlet.combination()) && e.variant().equals(FrameworkVariants.runName(inProcessName(servlet.variant()))))
                    .findFirst();
            if (emulated.isEmpty() || emulated.get().run() == null || servlet.run() == null) continue;
            RunResult e = emulated.get().run();
            RunResult s = servlet.run();
            double meanRatio = s.timing().latencyMillis().mean() / Math.max(1e-9, e.timing().latencyMillis().mean());
            double rateRatio = s.timing().throughputPerSecond() / Math.max(1e-9, e.timing().throughputPerSecond());
            boolean flagged = Math.max(meanRatio, 1 / meanRatio) > FLAG_RATIO || Math.max(rateRatio, 1 / Math.max(1e-9, rateRatio)) > FLAG_RATIO;
            cells.add(List.of(servlet.combination(), emulated.get().variant(),
                    RunTables.ms(e.timing().latencyMillis().mean()), RunTables.ms(s.timing().latencyMillis().mean()), ratio(meanRatio),
                    RunTables.ms(e.timing().latencyMillis().p99()), RunTables.ms(s.timing().latencyMillis().p99()),
                    RunTables.num(e.timing().throughputPerSecond()), RunTables.num(s.timing().throughputPerSecond()), ratio(rateRatio),
                    RunTables.pct(e.successRatio()) + " / " + RunTables.pct(s.successRatio()),
                    e.resources().peakPlatformThreads() + " / " + s.resources().peakPlatformThreads(),
                    flagged ? "> 20 %" : "ok"));
        }
        return new Table("Emulation beside the real stack (in-process variant / the same code in Tomcat + Jersey over HTTP)",
                List.of("load, delay", "variant", "avg ms emulated", "avg ms tomcat", "avg ratio", "p99 ms emulated", "p99 ms tomcat",
                        "req/s emulated", "req/s tomcat", "req/s ratio", "ok % (e / t)", "peak threads (e / t)", "flag"), cells);
    }

    private static String ratio(double r) { return String.format(Locale.ROOT, "%.2f", r); }
}
