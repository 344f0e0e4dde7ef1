package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.LabelledRun;
import dev.blocklab.report.SeedRow;
import dev.blocklab.model.Models;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000's task graph: 13 after about 5 s in the article's three styles, and under every model; then the
 * unhappy path, where task4 fails and the failure must reach the caller with its type and message.
 */
final class TaskGraphExperiment implements Experiment {
    static final List<String> MODELS = List.of("sequential", "fixed:8", "cached", "forkjoin:16",
            "forkjoin-managed:16", "cf-blocking:8", "cf-nonblocking:8", "virtual", "structured");

    @Override public String name() { return "task-graph"; }

    @Override public String description() {
        return "seed 000: a four-task CompletableFuture graph (13 after ~5 s) and its failure path";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        SeedRuns runs = new SeedRuns(settings);
        List<SeedRow> happy = new ArrayList<>();
        List<SeedRow> unhappy = new ArrayList<>();
        for (boolean fails : new boolean[]{false, true}) {
            Workload workload = BuiltInWorkloads.taskGraph(fails);
            List<SeedRow> rows = fails ? unhappy : happy;
            for (TaskGraphStyles style : TaskGraphStyles.values()) {
                RunResult r = runs.measure(workload, "seed-" + style.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'), style.asModel());
                rows.add(runs.emit(new SeedRow("style: " + style.label, r, articleMillis(style, fails), why(r, fails, true))));
            }
            for (String model : MODELS) {
                if (Models.parse(model).entry().unavailable().isPresent()) continue;
                RunResult r = runs.measure(workload, model);
                rows.add(runs.emit(new SeedRow("model: " + model, r, null, why(r, fails, false))));
            }
        }
        return result(settings, happy, unhappy);
    }

    /** The article's time for {@code style}: Listing 6's, on the happy path; none on the unhappy one, which it did not time. */
    static Double articleMillis(TaskGraphStyles style, boolean fails) {
        return fails ? null : style.articleMillis;
    }

    /** The tables, charts and notes over measured rows; separate from the runs so a test can lay out fixed rows. */
    ExperimentResult result(ExperimentSettings settings, List<SeedRow> happy, List<SeedRow> unhappy) {
        List<SeedRow> all = new ArrayList<>(happy);
        all.addAll(unhappy);
        List<LabelledRun> happyRuns = LabelledRun.ofSeedRows(happy);
        List<Chart> charts = new ArrayList<>(RunCharts.standard("Happy path", happyRuns));
        charts.add(RunCharts.wallTime("Unhappy path (task4 fails)", LabelledRun.ofSeedRows(unhappy)));
        return new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(), all,
                List.of(RunTables.seedRows("Happy path: input 1, answer 13 expected", happy),
                        RunTables.predictions("Happy path: prediction beside measurement", happyRuns),
                        outcomes("Happy path: answers", happy),
                        RunTables.seedRows("Unhappy path: task4 fails", unhappy),
                        outcomes("Unhappy path: what reached the caller", unhappy)),
                notes(settings), charts);
    }

    private static Table outcomes(String title, List<SeedRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (SeedRow row : rows) {
            RunResult r = row.run();
            String outcome = r.counts().successes() > 0 ? "answer " + r.answer()
                    : r.counts().failureCauses().isEmpty() ? "no outcome" : "failed: " + String.join("; ", r.counts().failureCauses().keySet());
            cells.add(List.of(row.label(), outcome, row.why()));
        }
        return new Table(title, List.of("row", "outcome", "why the time differs"), cells);
    }

    static String why(RunResult r, boolean fails, boolean seedStyle) {
        if (seedStyle) return "the article's style; " + RunTables.deviation(r);
        if (r.model().equals("sequential") || r.model().startsWith("fixed") || r.model().startsWith("forkjoin")
                || r.model().equals("cached") || r.model().equals("virtual"))
            return "direct-style blocking code runs task2 and task3 one after the other (7 s, not 5 s); " + RunTables.deviation(r);
        return "independent tasks overlap; " + RunTables.deviation(r);
    }

    private static List<String> notes(ExperimentSettings settings) {
        return List.of(
                "Article (Listing 6): 13 after " + String.join(", ", java.util.Arrays.stream(TaskGraphStyles.values())
                        .map(s -> RunTables.ms(s.articleMillis) + " ms (" + s.label + ")").toList())
                        + ", about 1 + max(2, 3) + 1 = 5 s, Java 8, 4 cores; 'article ms' is divided by the time scale. It gives no time for the unhappy path.",
                "Blocking models run each request as plain sequential code, so task2 and task3 do not overlap: 1 + 2 + 3 + 1 = 7 s; the styles and models that compose futures or fork reach the 5 s critical path.",
                "Unhappy path: every row must show 'failed: java.lang.IllegalArgumentException: This won't work!' - the original type and message reach the caller's future.",
                "Latency counts from the batch's start; wall time by System.nanoTime; CPU and context switches by getrusage for the whole process.",
                "Time scale: " + settings.scaleLabel() + ".");
    }
}
