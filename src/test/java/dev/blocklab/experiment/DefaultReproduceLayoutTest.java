package dev.blocklab.experiment;

import dev.blocklab.report.Golden;
import dev.blocklab.report.SeedRow;
import dev.blocklab.driver.Progress;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.report.SyntheticResults;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default text layout of {@code blocklab reproduce}: its three default experiments' results, built from fixed
 * rows (no timed runs), laid out for a 120-column terminal, against {@code golden/text/reproduce-default.txt}.
 * After an intended change, regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class DefaultReproduceLayoutTest {
    static final ExperimentSettings QUICK = new ExperimentSettings(false, 10, Progress.NONE, row -> {}, SyntheticResults.MACHINE);

    static List<ExperimentResult> results() {
        List<SeedRow> happy = new ArrayList<>();
        List<SeedRow> unhappy = new ArrayList<>();
        for (boolean fails : new boolean[]{false, true}) {
            List<SeedRow> rows = fails ? unhappy : happy;
            for (TaskGraphStyles style : TaskGraphStyles.values()) {
                RunResult r = SyntheticResults.run("seed-" + style.name().toLowerCase(Locale.ROOT).replace('_', '-'), 1, fails ? 0 : 1,
                        510, 500, 510, 510, 3, 14);
                rows.add(new SeedRow("style: " + style.label, r, TaskGraphExperiment.articleMillis(style, fails), TaskGraphExperiment.why(r, fails, true)));
            }
            for (String model : TaskGraphExperiment.MODELS) {
                boolean blocking = !model.startsWith("cf-") && !model.equals("structured");
                RunResult r = SyntheticResults.run(model, 1, fails ? 0 : 1, blocking ? 712 : 508, blocking ? 700 : 500, 500, 712, 2, 12);
                rows.add(new SeedRow("model: " + model, r, null, TaskGraphExperiment.why(r, fails, false)));
            }
        }
        ExperimentResult taskGraph = new TaskGraphExperiment().result(QUICK, happy, unhappy);

        List<SeedRow> main = new ArrayList<>();
        List<HundredCallsExperiment.SweepRow> sweep = new ArrayList<>();
        for (var entry : HundredCallsExperiment.ARTICLE_MILLIS.entrySet()) {
            String model = entry.getKey();
            double predicted = model.equals("sequential") ? 10_000 : model.startsWith("fixed") ? 1_300 : 100;
            RunResult r = SyntheticResults.run(model, 100, 100, predicted * 1.07, predicted, 100, predicted, 8, 20);
            main.add(new SeedRow(model, r, entry.getValue(), HundredCallsExperiment.why(model, r)));
            for (int calls : HundredCallsExperiment.SWEEP_CALLS) {
                double p = predicted * calls / 100.0;
                sweep.add(p > 3_000 ? new HundredCallsExperiment.SweepRow(model, calls, null, p, 10, "predicted " + (long) p + " ms > budget 3000 ms")
                        : new HundredCallsExperiment.SweepRow(model, calls, p * 1.05, p, 10, null));
            }
        }
        ExperimentResult hundredCalls = new HundredCallsExperiment().result(QUICK, main, sweep, 3_000);

        List<SeedRow> jobs = new ArrayList<>();
        for (String model : TenThousandJobsExperiment.MODELS) {
            RunResult r = SyntheticResults.run(model, 10_000, 10_000, model.equals("cached") ? 160 : 118, 100, 100, 115, 900, 900);
            jobs.add(new SeedRow(model, r, TenThousandJobsExperiment.ARTICLE_BEST_MILLIS.get(model), TenThousandJobsExperiment.why(model, r)));
        }
        ExperimentResult tenThousandJobs = new TenThousandJobsExperiment().result(QUICK, jobs, 5);
        return List.of(taskGraph, hundredCalls, tenThousandJobs);
    }

    static String text(int widthColumns) {
        StringBuilder out = new StringBuilder();
        for (ExperimentResult r : results()) out.append(ReportFormat.TEXT.create(widthColumns).render(r)).append('\n');
        return out.toString();
    }

    @Test void defaultLayout_threeDefaultExperiments_everyLineFits120Columns() {
        List<String> tooLong = text(120).lines().filter(l -> l.length() > 120).toList();
        assertThat(tooLong).as("lines longer than 120 columns").isEmpty();
    }

    @Test void defaultLayout_threeDefaultExperiments_matchesGoldenFile() {
        Golden.assertMatches("text/reproduce-default.txt", text(120));
    }

    @Test void defaultLayout_keepsTheEssentialColumnsAndSaysHowToSeeTheRest() {
        String text = text(120);
        assertThat(text).contains("model", "requests", "ok %", "wall ms", "predicted ms", "p50 ms", "p99 ms",
                "peak threads", "cpu us/req").contains("with --wide").doesNotContain("peak RSS MiB  alloc KiB/req");
    }

    @Test void articleMachines_asTheArticlesDescribeThem() {
        String wide = text(ReportFormat.WIDE);
        assertThat(wide).as("seed 003's global context had 16 threads, one per processor")
                .contains("a machine of 16 hardware threads").doesNotContain("8-thread machine", "8 hardware threads");
        assertThat(wide).as("seed 004's best cached run").contains("cached pool 694 ms");
    }

    @Test void wideLayout_keepsEveryColumnOnOneLine() {
        String wide = text(ReportFormat.WIDE);
        assertThat(wide).contains("alloc KiB/req").contains("ctx sw vol/invol").doesNotContain("with --wide");
        assertThat(wide.lines().mapToInt(String::length).max().orElseThrow()).isGreaterThan(200);
    }

    @Test void narrowTerminal_80Columns_everyTableLineFits() {
        List<String> tooLong = text(80).lines().filter(l -> l.length() > 80).toList();
        assertThat(tooLong).isEmpty();
    }
}
