package dev.blocklab.result;

import java.util.List;
import java.util.Objects;

/**
 * A table for text and CSV reports: a title, columns whose headers carry units, and rows of already formatted
 * cells. Experiments build tables from their typed rows; reports only lay them out.
 */
public record Table(String title, List<String> columns, List<List<String>> rows) {
    public Table {
        Objects.requireNonNull(title, "title");
        columns = List.copyOf(columns);
        rows = rows.stream().map(List::copyOf).toList();
        for (List<String> row : rows)
            if (row.size() != columns.size())
                throw new IllegalArgumentException("table '" + title + "': a row has " + row.size() + " cells for " + columns.size() + " columns");
    }
}
