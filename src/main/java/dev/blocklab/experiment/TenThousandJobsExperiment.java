package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.LabelledRun;
import dev.blocklab.report.SeedRow;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.model.Models;
import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Seed 004: 10,000 jobs of 100 ms on a cached pool, on virtual threads and in a structured scope; best and
 * median of repeated runs (the article printed the best of 101), threads created and peak memory.
 */
final class TenThousandJobsExperiment implements Experiment {
    /** The best of the article's 101 runs (the first of its "Top 10 executions"), in milliseconds at full scale. */
    static final Map<String, Double> ARTICLE_BEST_MILLIS = ArticleFigures.millis("cached 694, virtual 121, structured -");
    static final List<String> MODELS = List.copyOf(ARTICLE_BEST_MILLIS.keySet());

    @Override public String name() { return "ten-thousand-jobs"; }

    @Override public String description() {
        return "seed 004: 10,000 jobs of 100 ms on a cached pool, virtual threads and a structured scope";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        InProcessDriver driver = new InProcessDriver();
        Workload workload = BuiltInWorkloads.tenThousandJobs();
        int repeats = settings.full() ? 101 : 5;
        RunSettings rs = RunSettings.DEFAULTS.withTimeScale(settings.timeScale()).withRuns(1, repeats);
        List<SeedRow> rows = new ArrayList<>();
        for (String model : MODELS) {
            if (Models.parse(model).entry().unavailable().isPresent()) continue;
            RunResult r = driver.run(workload, model, rs, line -> settings.progress().update(line));
            SeedRow row = new SeedRow(model, r, ARTICLE_BEST_MILLIS.get(model), why(model, r));
            settings.rowSink().accept(row);
            rows.add(row);
        }
        return result(settings, rows, repeats);
    }

    /** The tables, charts and notes over measured rows; separate from the runs so a test can lay out fixed rows. */
    ExperimentResult result(ExperimentSettings settings, List<SeedRow> rows, int repeats) {
        List<List<String>> cells = new ArrayList<>();
        for (SeedRow row : rows) {
            RunResult r = row.run();
            cells.add(List.of(row.label(), RunTables.ms(r.repeats().wallMillisMin()), RunTables.ms(r.timing().wallMillis()),
                    RunTables.ms(r.prediction().predictedMillis()),
                    row.articleMillis() == null ? "-" : RunTables.ms(row.articleMillis() / r.timeScaleDivisor()),
                    String.valueOf(r.resources().platformThreadsStarted()), String.valueOf(r.resources().peakPlatformThreads()),
                    String.valueOf(r.resources().peakOsThreads()), RunTables.mib(r.resources().peakRssBytes()), RunTables.mib(r.resources().allocatedBytes()),
                    String.valueOf(r.repeats().count())));
        }
        Table best = new Table("10,000 jobs: best and median of " + repeats + " runs",
                List.of("model", "best ms", "median ms", "predicted ms", "article best ms", "OS threads created",
                        "peak platform threads", "peak OS threads", "peak RSS MiB", "alloc MiB", "runs"), cells);
        List<LabelledRun> labelled = LabelledRun.ofSeedRows(rows);
        List<Chart> charts = new ArrayList<>(List.of(bestChart(rows, repeats)));
        charts.addAll(RunCharts.standard("10,000 jobs", labelled));
        return new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(), rows,
                List.of(best, RunTables.seedRows("All measures (median run)", rows),
                        RunTables.predictions("Prediction beside measurement (median run)", labelled),
                        new Table("Why", List.of("model", "why"), rows.stream().map(r -> List.of(r.label(), r.why())).toList())),
                List.of("Article: best of 101 runs on a JDK with early-access Loom; cached pool " + RunTables.ms(ARTICLE_BEST_MILLIS.get("cached"))
                                + " ms (which it rounds to ~700 ms), virtual threads " + RunTables.ms(ARTICLE_BEST_MILLIS.get("virtual"))
                                + " ms. 'article best ms' is divided by the time scale, but thread creation is not scaled, so at the quick scale the cached pool's overhead weighs ten times more.",
                        "OS threads created = platform threads started during the run (ThreadMXBean); virtual threads are not OS threads. At the quick scale a job ends after 10 ms, before the loop has submitted all 10,000, so the cached pool reuses idle threads and creates far fewer than 10,000; --full shows the article's one thread per job.",
                        "Peak RSS sampled from /proc/self/status every 10 ms; it includes the JVM's heap as sized so far.",
                        "Time scale: " + settings.scaleLabel() + "."), charts);
    }

    /** Best and median wall time beside the prediction and the article's best, per model. */
    static Chart bestChart(List<SeedRow> rows, int repeats) {
        List<String> models = rows.stream().map(SeedRow::label).toList();
        List<Double> article = new ArrayList<>();
        for (SeedRow r : rows) article.add(r.articleMillis() == null ? null : r.articleMillis() / r.run().timeScaleDivisor());
        List<Bars> bars = List.of(new Bars("best", rows.stream().map(r -> r.run().repeats().wallMillisMin()).toList()),
                new Bars("median", rows.stream().map(r -> r.run().timing().wallMillis()).toList()),
                new Bars("predicted", rows.stream().map(r -> r.run().prediction().predictedMillis()).toList()),
                new Bars("article best (scaled)", article));
        return new Chart.BarChart("10,000 jobs: best and median of " + repeats + " runs", new Axis("model", ""), models,
                new Axis("wall time", "ms"), bars, RunCharts.spansWidely(bars),
                "Wall time by System.nanoTime from the first submit to the last completion, best and median of " + repeats
                        + " runs after one warm-up; the article's best of 101 divided by the time scale (thread creation is not scaled).");
    }

    static String why(String model, RunResult r) {
        String prefix = switch (model) {
            case "cached" -> "a platform thread per waiting job: creating and scheduling "
                    + String.format(java.util.Locale.ROOT, "%,d", r.resources().platformThreadsStarted()) + " OS threads on "
                    + Runtime.getRuntime().availableProcessors() + " cores dominates"
                    + (r.resources().platformThreadsStarted() < r.counts().requests() ? " (some reused)" : "");
            case "virtual" -> "virtual threads are cheap to create and unmount while sleeping";
            case "structured" -> "the same virtual threads inside a scope that waits for all";
            default -> "";
        };
        return prefix + "; " + RunTables.deviation(r);
    }
}
