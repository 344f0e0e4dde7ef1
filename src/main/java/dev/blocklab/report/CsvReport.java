package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every table in one rectangular RFC 4180 CSV that common readers load as is: a first column {@code table} holding
 * the table's title, then the union of the tables' columns in order of first appearance; a cell of a column that
 * its table does not have is empty. No comment lines, no blank lines. A number the text report groups by thousands
 * ({@code 9,059}) is written without the commas, and a number the text report annotates ({@code 1.11 x},
 * {@code 2.40 x: pool saturated}, {@code 114 (mean latency)}) as the number alone (the cause and the kind of
 * prediction are columns of the prediction table), so readers take it as a number. A column whose cells are all
 * two numbers in one ({@code ctx sw vol/invol}: {@code 643/163}; {@code rate /s (of capacity)}: {@code 90 (45 %)})
 * becomes two columns ({@code ctx sw vol}, {@code ctx sw invol}; {@code rate /s}, {@code rate /s (of capacity, %)}).
 */
final class CsvReport implements Report<ExperimentResult> {

    @Override public String render(ExperimentResult result) {
        Map<String, Integer> index = new LinkedHashMap<>();
        index.put("table", 0);
        List<List<String>> names = new ArrayList<>();
        List<Table> tables = result.tables().stream().map(CsvReport::splitPairs).toList();
        for (Table table : tables) {
            List<String> unique = uniqueNames(table.columns());
            names.add(unique);
            for (String column : unique) index.putIfAbsent(column, index.size());
        }
        if (tables.isEmpty()) return "";
        StringBuilder out = new StringBuilder(line(List.copyOf(index.keySet())));
        for (int t = 0; t < tables.size(); t++) {
            Table table = tables.get(t);
            for (List<String> row : table.rows()) {
                String[] cells = new String[index.size()];
                java.util.Arrays.fill(cells, "");
                cells[0] = table.title();
                for (int c = 0; c < row.size(); c++) cells[index.get(names.get(t).get(c))] = ungrouped(row.get(c));
                out.append(line(List.of(cells)));
            }
        }
        return out.toString();
    }

    private static final String NUMBER = "-?\\d[\\d,]*(?:\\.\\d+)?";
    private static final java.util.regex.Pattern SLASH_NAME = java.util.regex.Pattern.compile("(.*?)([\\w-]+)/([\\w-]+)");
    private static final java.util.regex.Pattern SLASH_CELL = java.util.regex.Pattern.compile("(" + NUMBER + ")/(" + NUMBER + ")");
    private static final java.util.regex.Pattern SHARE_NAME = java.util.regex.Pattern.compile("(.+) \\((.+)\\)");
    private static final java.util.regex.Pattern SHARE_CELL = java.util.regex.Pattern.compile("(" + NUMBER + ") \\((" + NUMBER + ") %\\)");

    /**
     * The table with each column of paired numbers as two columns: a name {@code A B/C} whose every non-empty cell is
     * {@code n/m} gives {@code A B} and {@code A C}; a name {@code A (B)} whose every non-empty cell is {@code n (p %)}
     * gives {@code A} and {@code A (B, %)}. Any other column stays as it is.
     */
    static Table splitPairs(Table table) {
        List<String> columns = new ArrayList<>();
        List<List<String>> rows = table.rows().stream().map(r -> (List<String>) new ArrayList<String>()).toList();
        for (int c = 0; c < table.columns().size(); c++) {
            String name = table.columns().get(c);
            java.util.regex.Pattern cell = null;
            List<String> split = null;
            java.util.regex.Matcher slash = SLASH_NAME.matcher(name), share = SHARE_NAME.matcher(name);
            if (slash.matches()) {
                cell = SLASH_CELL;
                split = List.of(slash.group(1) + slash.group(2), slash.group(1) + slash.group(3));
            } else if (share.matches()) {
                cell = SHARE_CELL;
                split = List.of(share.group(1), share.group(1) + " (" + share.group(2) + ", %)");
            }
            if (split != null && allMatch(table, c, cell)) {
                columns.addAll(split);
                for (int r = 0; r < rows.size(); r++) {   // a '-' (not measured) or a negative count (unknown) is an empty cell
                    java.util.regex.Matcher m = cell.matcher(table.rows().get(r).get(c));
                    boolean pair = m.matches();
                    rows.get(r).add(pair ? known(m.group(1)) : "");
                    rows.get(r).add(pair ? known(m.group(2)) : "");
                }
            } else {
                columns.add(name);
                for (int r = 0; r < rows.size(); r++) rows.get(r).add(table.rows().get(r).get(c));
            }
        }
        return new Table(table.title(), columns, rows);
    }

    private static String known(String number) { return number.startsWith("-") ? "" : number; }

    /** Column {@code c} has a pair, and every other cell is empty or {@code -} (nothing measured). */
    private static boolean allMatch(Table table, int c, java.util.regex.Pattern cell) {
        boolean any = false;
        for (List<String> row : table.rows()) {
            String v = row.get(c);
            if (v.isEmpty() || v.equals("-")) continue;
            if (!cell.matcher(v).matches()) return false;
            any = true;
        }
        return any;
    }

    /** The columns, a repeated name numbered ({@code ms}, {@code ms (2)}) so each cell has its own column. */
    private static List<String> uniqueNames(List<String> columns) {
        List<String> unique = new ArrayList<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (String column : columns) {
            String name = column.equals("table") ? "table (column)" : column;   // "table" is the first column's
            int n = seen.merge(name, 1, Integer::sum);
            unique.add(n == 1 ? name : name + " (" + n + ")");
        }
        return unique;
    }

    private static final java.util.regex.Pattern GROUPED = java.util.regex.Pattern.compile("-?\\d{1,3}(,\\d{3})+(\\.\\d+)?");

    private static final java.util.regex.Pattern ANNOTATED = java.util.regex.Pattern.compile("(-?\\d+(\\.\\d+)?)( x(: .*)?| \\(mean latency\\))");

    /** {@code 9,059} as {@code 9059}, {@code 1.11 x: cause} and {@code 114 (mean latency)} as their number; any other cell as it is. */
    static String ungrouped(String cell) {
        if (GROUPED.matcher(cell).matches()) return cell.replace(",", "");
        java.util.regex.Matcher m = ANNOTATED.matcher(cell);
        return m.matches() ? m.group(1) : cell;
    }

    private static String line(List<String> cells) {
        return cells.stream().map(CsvReport::escape).collect(Collectors.joining(",")) + "\n";
    }

    static String escape(String cell) {
        if (cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r"))
            return "\"" + cell.replace("\"", "\"\"") + "\"";
        return cell;
    }
}
