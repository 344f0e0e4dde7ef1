package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.LabelledRun;
import dev.blocklab.report.SeedRow;
import dev.blocklab.model.Models;
import dev.blocklab.result.Axis;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Series;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Seed 003: 100 blocking calls of 1 s under each model, beside the article's Scala figures; then its Figure 5
 * sweep, total time against the number of calls.
 */
final class HundredCallsExperiment implements Experiment {
    /** The article's figures at full scale, in milliseconds. */
    static final Map<String, Double> ARTICLE_MILLIS = ArticleFigures.millis("sequential 100122, fixed:8 13057, forkjoin:16 7057, "
            + "forkjoin-managed:16 1069, scala-global 7057, scala-global-blocking 1069, cf-nonblocking:8 1044, virtual -, structured -");
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    static final int[] SWEEP_CALLS = {1, 10, 100, 1_000, 10_000};

    /**
     * One point of the Figure 5 sweep.
     *
     * @param skipped why the point was not run (its prediction exceeded the time budget), or null
     */
    public record SweepRow(String model, int calls, Double wallMillis, double predictedMillis, long timeScaleDivisor,
                           String skipped) {}

    @Override public String name() { return "hundred-calls"; }

    @Override public String description() {
        return "seed 003: 100 blocking calls of 1 s under each model, and total time against the number of calls (Figure 5)";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        SeedRuns runs = new SeedRuns(settings);
        Workload workload = BuiltInWorkloads.hundredCalls();
        List<SeedRow> main = new ArrayList<>();
        for (var entry : ARTICLE_MILLIS.entrySet()) {
            String model = entry.getKey();
            if (Models.parse(model).entry().unavailable().isPresent()) continue;
            RunResult r = runs.measure(workload, model);
            main.add(runs.emit(new SeedRow(model, r, entry.getValue(), why(model, r))));
        }

        double budgetMillis = settings.full() ? 120_000 : 3_000;
        List<SweepRow> sweep = new ArrayList<>();
        for (String model : ARTICLE_MILLIS.keySet()) {
            if (Models.parse(model).entry().unavailable().isPresent()) continue;
            for (int calls : SWEEP_CALLS) {
                Workload w = workload.withArrival(new Arrival.Batch(calls));
                double predicted = runs.predictMillis(w, model);
                SweepRow row;
                if (predicted > budgetMillis) {
                    row = new SweepRow(model, calls, null, predicted, settings.timeScale(),
                            String.format(java.util.Locale.ROOT, "predicted %.0f ms > budget %.0f ms", predicted, budgetMillis));
                } else {
                    RunResult r = runs.measure(w, model);
                    row = new SweepRow(model, calls, r.timing().wallMillis(), predicted, settings.timeScale(), null);
                }
                settings.rowSink().accept(row);
                sweep.add(row);
            }
        }
        return result(settings, main, sweep, budgetMillis);
    }

    /** The tables, charts and notes over measured rows; separate from the runs so a test can lay out fixed rows. */
    ExperimentResult result(ExperimentSettings settings, List<SeedRow> main, List<SweepRow> sweep, double budgetMillis) {
        List<Object> rows = new ArrayList<>(main);
        rows.addAll(sweep);
        List<LabelledRun> labelled = LabelledRun.ofSeedRows(main);
        List<Chart> charts = new ArrayList<>(List.of(sweepChart(sweep, true), sweepChart(sweep, false)));
        charts.addAll(RunCharts.standard("100 calls of 1 s", labelled));
        return new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(), rows,
                List.of(RunTables.seedRows("100 calls of 1 s", main),
                        RunTables.predictions("100 calls of 1 s: prediction beside measurement", labelled),
                        whyTable(main), sweepTable(sweep)),
                notes(settings, budgetMillis), charts);
    }

    /** Figure 5: one line per model, total time against the number of calls, log-log; measured or predicted. */
    static Chart sweepChart(List<SweepRow> sweep, boolean measured) {
        List<Series> series = new ArrayList<>();
        for (String model : sweep.stream().map(SweepRow::model).distinct().toList()) {
            List<Series.Point> points = sweep.stream()
                    .filter(s -> s.model().equals(model) && (!measured || s.wallMillis() != null))
                    .map(s -> new Series.Point(s.calls(), measured ? s.wallMillis() : s.predictedMillis())).toList();
            if (!points.isEmpty()) series.add(new Series(model, points));
        }
        long scale = sweep.isEmpty() ? 1 : sweep.getFirst().timeScaleDivisor();
        return new Chart.LineChart("Figure 5: total time against the number of calls, " + (measured ? "measured" : "predicted"),
                new Axis("blocking calls of 1 s in one batch", "count"), new Axis("total wall time", "ms"), series, true, true,
                measured ? "Wall time by System.nanoTime from the first submit to the last completion, one run per point (median of 3 where the prediction is below " + SeedRuns.REPEAT_BELOW_MILLIS + " ms); "
                        + "points predicted over the time budget are not run; " + ExperimentSettings.delays(scale) + "."
                        : "Each model's formula for a batch of that many calls (e.g. ceil(calls / threads) x 1 s); " + ExperimentSettings.delays(scale) + ".");
    }

    private static Table whyTable(List<SeedRow> rows) {
        return new Table("Why measured, predicted and article differ", List.of("model", "why"),
                rows.stream().map(r -> List.of(r.label(), r.why())).toList());
    }

    private static Table sweepTable(List<SweepRow> sweep) {
        List<String> columns = new ArrayList<>(List.of("model"));
        for (int calls : SWEEP_CALLS) columns.add(calls + (calls == 1 ? " call ms" : " calls ms"));
        List<List<String>> cells = new ArrayList<>();
        for (String model : sweep.stream().map(SweepRow::model).distinct().toList()) {
            List<String> line = new ArrayList<>(List.of(model));
            for (int calls : SWEEP_CALLS) {
                line.add(sweep.stream().filter(s -> s.model().equals(model) && s.calls() == calls).findFirst()
                        .map(s -> s.wallMillis() == null ? "skipped" : RunTables.ms(s.wallMillis())).orElse("-"));
            }
            cells.add(line);
        }
        return new Table("Figure 5: total time against the number of calls (wall ms at this time scale)", columns, cells);
    }

    static String why(String model, RunResult r) {
        String prefix = switch (model) {
            case "sequential" -> "one call after another: 100 x 1 s, as in the article";
            case "fixed:8" -> "batches of 8 on 8 threads: ceil(100/8) = 13 waves, as in the article";
            case "forkjoin:16" -> "16 workers that do not know they block: ceil(100/16) = 7 waves; the article's global context had 16 threads, one per hardware thread of its machine; here the pool is sized to 16 explicitly";
            case "forkjoin-managed:16" -> "ManagedBlocker adds a spare thread per blocked call (cap 256), so all 100 wait at once";
            case "scala-global" -> "the real scala.concurrent.Future on a pool built as ExecutionContext.global() is: "
                    + (System.getProperty("scala.concurrent.context.numThreads") == null
                        ? "its threads are the cores (" + CORES + " here, 16 in the article) unless -Dscala.concurrent.context.numThreads and maxThreads say otherwise"
                        : "its threads are set by -Dscala.concurrent.context.numThreads=" + System.getProperty("scala.concurrent.context.numThreads") + " (16 in the article)")
                    + " (the prediction shows the size used), one wave per that many calls; "
                    + "forkjoin:16 is the same pool sized as the article's";
            case "scala-global-blocking" -> "the real scala.concurrent.blocking { }: a compensating thread per blocked call "
                    + "up to maxExtraThreads (256), as forkjoin-managed:16's 256 spares; one wave for 100 calls";
            case "cf-nonblocking:8" -> "timer-completed futures hold no thread: one 1 s wave";
            case "virtual" -> "the article had no virtual threads; 100 virtual threads unmount while sleeping: one wave";
            case "structured" -> "the article had no StructuredTaskScope; on virtual threads: one wave";
            default -> "";
        };
        return prefix + "; " + RunTables.deviation(r);
    }

    private static List<String> notes(ExperimentSettings settings, double budgetMillis) {
        return List.of(
                "Article: Scala futures on a machine of 16 hardware threads (its global context's 16 threads, one per processor); blocklab uses Java pools of the same sizes.",
                "scala-global and scala-global-blocking are the real library (scala-library 2.13.16, called from Java) on a fresh pool built by the global's own factory: "
                        + "parallelism from the cores (" + CORES + " on this machine; -Dscala.concurrent.context.numThreads=16 -Dscala.concurrent.context.maxThreads=16 "
                        + "in BLOCKLAB_JAVA_OPTS gives the article's 16) and at most 256 calls in blocking { } compensated at once (scala.concurrent.context.maxExtraThreads); "
                        + "forkjoin:16 and forkjoin-managed:16 are the same mechanisms at a fixed 16 threads. See docs/frameworks.md.",
                "'article ms' is the article's figure divided by the time scale; fixed costs (thread creation, scheduling) are not divided, so a scaled run overstates them against it, most where 100 threads start at once.",
                "Sweep points whose prediction exceeds the time budget (" + Math.round(budgetMillis) + " ms at this scale) are skipped and marked so.",
                "Latency counts from the batch's start; wall time by System.nanoTime from first submit to last completion.",
                "Time scale: " + settings.scaleLabel() + ".");
    }
}
