package dev.blocklab.result;

import java.util.List;
import java.util.Objects;

/**
 * What one experiment produced.
 *
 * @param experiment  its name, e.g. {@code hundred-calls}
 * @param description one line on what it reproduces
 * @param scale       {@code quick} or {@code full}
 * @param environment the machine it ran on
 * @param rows        typed rows (records) for JSON; each experiment documents its row type
 * @param tables      the same figures laid out for text and CSV
 * @param notes       one line per difference from the article, and how figures were measured
 */
public record ExperimentResult(String experiment, String description, String scale, Environment environment,
                               List<?> rows, List<Table> tables, List<String> notes) {
    public ExperimentResult {
        Objects.requireNonNull(experiment, "experiment");
        rows = List.copyOf(rows);
        tables = List.copyOf(tables);
        notes = List.copyOf(notes);
    }
}
