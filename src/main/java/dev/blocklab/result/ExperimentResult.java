package dev.blocklab.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one experiment produced.
 *
 * @param experiment  its name, e.g. {@code hundred-calls}
 * @param description one line on what it reproduces
 * @param scale       {@code quick} or {@code full}
 * @param environment the machine it ran on
 * @param rows        typed rows (records) for JSON; each experiment documents its row type. Read back from a
 *                    saved file they are generic maps with the same fields
 * @param tables      the same figures laid out for text and CSV
 * @param notes       one line per difference from the article, and how figures were measured
 * @param charts      what the HTML report draws, in order; empty where the experiment has none
 */
public record ExperimentResult(String experiment, String description, String scale, Environment environment,
                               List<?> rows, List<Table> tables, List<String> notes, List<Chart> charts) {
    public ExperimentResult {
        Objects.requireNonNull(experiment, "experiment");
        rows = List.copyOf(rows);
        tables = List.copyOf(tables);
        notes = List.copyOf(notes);
        charts = charts == null ? List.of() : List.copyOf(charts);
    }

    /** A result without charts. */
    public ExperimentResult(String experiment, String description, String scale, Environment environment,
                            List<?> rows, List<Table> tables, List<String> notes) {
        this(experiment, description, scale, environment, rows, tables, notes, List.of());
    }

    /** This result with {@code more} charts after its own. */
    public ExperimentResult withCharts(List<Chart> more) {
        List<Chart> all = new ArrayList<>(charts);
        all.addAll(more);
        return new ExperimentResult(experiment, description, scale, environment, rows, tables, notes, all);
    }
}
