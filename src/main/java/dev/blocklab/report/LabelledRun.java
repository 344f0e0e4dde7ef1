package dev.blocklab.report;

import dev.blocklab.result.RunResult;

import java.util.List;
import java.util.Objects;

/**
 * A run with the label it has in an experiment's tables and charts, e.g. {@code model: fixed:8}.
 *
 * @param label the row's or bar's name
 * @param run   what was measured
 */
public record LabelledRun(String label, RunResult run) {
    public LabelledRun {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(run, "run");
    }

    /** Each run labelled by its model's name. */
    public static List<LabelledRun> byModel(List<RunResult> runs) {
        return runs.stream().map(r -> new LabelledRun(r.model(), r)).toList();
    }

    /** Each seed row labelled by its own label. */
    public static List<LabelledRun> ofSeedRows(List<SeedRow> rows) {
        return rows.stream().map(r -> new LabelledRun(r.label(), r.run())).toList();
    }
}
