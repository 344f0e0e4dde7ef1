package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.List;
import java.util.stream.Collectors;

/** Each table as RFC 4180 CSV, preceded by a {@code # title} line; tables separated by a blank line. */
final class CsvReport implements Report {

    @Override public String render(ExperimentResult result) {
        StringBuilder out = new StringBuilder();
        for (Table table : result.tables()) {
            if (!out.isEmpty()) out.append('\n');
            out.append("# ").append(table.title()).append('\n');
            out.append(line(table.columns()));
            for (List<String> row : table.rows()) out.append(line(row));
        }
        return out.toString();
    }

    private static String line(List<String> cells) {
        return cells.stream().map(CsvReport::escape).collect(Collectors.joining(",")) + "\n";
    }

    static String escape(String cell) {
        if (cell.contains(",") || cell.contains("\"") || cell.contains("\n"))
            return "\"" + cell.replace("\"", "\"\"") + "\"";
        return cell;
    }
}
