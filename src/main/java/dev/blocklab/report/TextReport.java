package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.List;

/** Fixed-width tables, units in every header, then the notes. */
final class TextReport implements Report {

    @Override public String render(ExperimentResult result) {
        StringBuilder out = new StringBuilder();
        out.append("== ").append(result.experiment()).append(" (").append(result.scale()).append("): ")
                .append(result.description()).append('\n');
        if (result.environment() != null) out.append("machine: ").append(result.environment().summary()).append('\n');
        for (Table table : result.tables()) {
            out.append('\n').append(table.title()).append('\n');
            out.append(layout(table));
        }
        if (!result.notes().isEmpty()) {
            out.append('\n');
            for (String note : result.notes()) out.append("* ").append(note).append('\n');
        }
        return out.toString();
    }

    /** Columns padded to their widest cell; the first column left-aligned, the rest right-aligned. */
    static String layout(Table table) {
        int[] widths = new int[table.columns().size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = table.columns().get(c).length();
            for (List<String> row : table.rows()) widths[c] = Math.max(widths[c], row.get(c).length());
        }
        StringBuilder out = new StringBuilder();
        appendRow(out, table.columns(), widths);
        int total = 0;
        for (int w : widths) total += w + 2;
        out.append("-".repeat(Math.max(0, total - 2))).append('\n');
        for (List<String> row : table.rows()) appendRow(out, row, widths);
        return out.toString();
    }

    private static void appendRow(StringBuilder out, List<String> cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) line.append("  ");
            String cell = cells.get(c);
            String pad = " ".repeat(widths[c] - cell.length());
            line.append(c == 0 ? cell + pad : pad + cell);
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
