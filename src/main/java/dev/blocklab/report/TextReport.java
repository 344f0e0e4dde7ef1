package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;

/**
 * Fixed-width tables, units in every header, then the notes. Narrow (the default on a terminal): every line fits
 * {@code widthColumns}; a table too wide keeps its {@link #ESSENTIAL essential columns} and says how many it left
 * out, and long text cells wrap inside their column. Wide ({@link #WIDE}): every column, nothing wrapped.
 */
final class TextReport implements Report<ExperimentResult> {
    /** The width that means "every column, no wrapping" ({@code --wide}). */
    static final int WIDE = Integer.MAX_VALUE;
    /**
     * The headers kept when a table does not fit; the first column is always kept, and {@code model} goes where
     * the first column, {@code row}, already names the run. Other columns are then added back in the table's order
     * while the line still fits. Most important first: when even these do not fit, the last ones present go first
     * (a seed's table keeps the article's figure beside its own before its CPU per request). Every column of the
     * article's figures ({@link #ARTICLE_COLUMN_PREFIXES}: {@code article best ms}, {@code talk p99 ms}) ranks as
     * {@code article ms}.
     */
    static final List<String> ESSENTIAL = List.of("row", "model", "requests", "ok %", "success %", "wall ms", "predicted ms",
            "predicted %", "article ms",
            "predicted req/s", "measured ok req/s", "p99 ms", "verdict", "req/s", "p50 ms", "peak threads", "cpu us/req");
    /** How the header of a column of the seed article's figures begins (seed 001 is a talk). */
    static final List<String> ARTICLE_COLUMN_PREFIXES = List.of("article ", "talk ");
    /** A text column is never wrapped narrower than this. */
    private static final int MIN_COLUMN = 12;
    /** The first column, which names the row, wraps only beyond this. */
    private static final int FIRST_COLUMN = 32;
    /** A word longer than this may be cut to let its column narrow. */
    private static final int MAX_WORD = 24;
    private static final String GAP = "  ";
    /** A grid whose rows would wrap to more lines than this is laid out as one block per row instead. */
    private static final int MAX_ROW_LINES = 3;

    private final int widthColumns;

    TextReport(int widthColumns) {
        if (widthColumns < 40) throw new IllegalArgumentException("text width must be at least 40 columns, got " + widthColumns);
        this.widthColumns = widthColumns;
    }

    @Override public String render(ExperimentResult result) {
        StringBuilder out = new StringBuilder();
        wrap(out, "== " + result.experiment() + " (" + result.scale() + "): " + result.description(), "   ");
        if (result.environment() != null) wrap(out, "machine: " + result.environment().summary(), "  ");
        for (Table table : result.tables()) {
            out.append('\n');
            wrap(out, table.title(), "  ");
            out.append(layout(table, widthColumns));
        }
        if (!result.notes().isEmpty()) {
            out.append('\n');
            for (String note : result.notes()) wrap(out, "* " + note, "  ");
        }
        return out.toString();
    }

    private void wrap(StringBuilder out, String text, String indent) {
        List<String> lines = wrapLines(text, widthColumns, indent);
        for (String line : lines) out.append(line).append('\n');
    }

    /**
     * Every column padded to its widest cell; the first column and columns of words (most cells with a space: a
     * cause, a formula, a verdict) left-aligned, so sentences start in one place; figures right-aligned.
     */
    static String layout(Table table) { return layout(table, WIDE); }

    /** The column's place in {@link #ESSENTIAL}, an article column's that of {@code article ms}; -1 when not essential. */
    static int essentialRank(String column) {
        return ARTICLE_COLUMN_PREFIXES.stream().anyMatch(column::startsWith) ? ESSENTIAL.indexOf("article ms") : ESSENTIAL.indexOf(column);
    }

    /** The table in at most {@code width} columns where it can be done (see the class comment). */
    static String layout(Table table, int width) {
        List<Integer> kept = new ArrayList<>();
        for (int c = 0; c < table.columns().size(); c++) kept.add(c);
        int[] natural = naturalWidths(table, kept);
        String omitted = null;
        if (lineWidth(natural) > width) {
            List<Integer> essential = new ArrayList<>(List.of(0));
            boolean named = table.columns().getFirst().equals("row");
            for (int c = 1; c < table.columns().size(); c++) {
                String column = table.columns().get(c);
                if (essentialRank(column) >= 0 && !(named && column.equals("model"))) essential.add(c);
            }
            while (essential.size() > 4 && lineWidth(wrappedWidths(table, essential)) > width) {   // the least important goes
                int last = essential.stream().skip(1).max(java.util.Comparator.comparingInt(c -> essentialRank(table.columns().get(c)))).orElseThrow();
                essential.remove(Integer.valueOf(last));
            }
            if (essential.size() >= 4) {
                // then the other columns, in the table's order, while the line still fits: a table whose own key
                // figures are not in ESSENTIAL (a pool size, a predicted rate) keeps them
                for (int c = 1; c < table.columns().size(); c++) {
                    if (essential.contains(c)) continue;
                    List<Integer> tried = new ArrayList<>(essential);
                    tried.add(c);
                    tried.sort(null);
                    if (lineWidth(wrappedWidths(table, tried)) <= width) essential = tried;
                }
                int left = kept.size() - essential.size();
                kept = essential;
                natural = naturalWidths(table, kept);
                if (left > 0) omitted = "(" + left + " more column" + (left == 1 ? "" : "s") + " with --wide; --format json and csv keep every column)";
            }
        }
        int[] widths = fit(natural, minimumWidths(table, kept, natural), width);
        if (lineWidth(widths) > width || tallestRow(table, kept, widths) > MAX_ROW_LINES) return records(table, width);
        StringBuilder out = new StringBuilder();
        boolean[] words = new boolean[kept.size()];
        for (int k = 0; k < kept.size(); k++) {
            int c = kept.get(k), w = widths[k];
            // left-aligned: the first column, a column of phrases, and one whose long cells wrap (a knee's "met" beside its "broke: ...")
            words[k] = c == 0 || phrases(table, c) || table.rows().stream().anyMatch(row -> row.get(c).length() > w);
        }
        appendRow(out, pick(table.columns(), kept), widths, words);
        out.append("-".repeat(lineWidth(widths))).append('\n');
        for (List<String> row : table.rows()) appendRow(out, pick(row, kept), widths, words);
        if (omitted != null) out.append(omitted).append('\n');
        return out.toString();
    }

    /** True when most of the column's cells are phrases (a cause, a verdict), not figures with a few words. */
    private static boolean phrases(Table table, int column) {
        long phrases = table.rows().stream().filter(row -> row.get(column).strip().contains(" ")).count();
        return phrases * 2 > table.rows().size();
    }

    /**
     * The widths a table is judged to fit by when choosing its columns: a column that can wrap (a cell of several
     * words) counts at half its natural width, never below its minimum, since its longest cells go onto a second
     * line; the others at their natural width. Judged unwrapped, a column of sentences (a knee's verdict) was left
     * out whenever its longest one was wider than the room beside the figures.
     */
    private static int[] wrappedWidths(Table table, List<Integer> kept) {
        int[] natural = naturalWidths(table, kept);
        int[] minimum = minimumWidths(table, kept, natural);
        int[] widths = natural.clone();
        for (int i = 1; i < widths.length; i++) widths[i] = Math.min(natural[i], Math.max(minimum[i], (natural[i] + 1) / 2));
        return widths;
    }

    private static int tallestRow(Table table, List<Integer> kept, int[] widths) {
        int tallest = 1;
        for (List<String> row : table.rows())
            for (int i = 0; i < widths.length; i++)
                tallest = Math.max(tallest, wrapLines(row.get(kept.get(i)), widths[i], "").size());
        return tallest;
    }

    /**
     * A table too wide for a grid, one block per row: its name, then its one-word cells on shared lines
     * ({@code header value}), then each longer cell on its own line ({@code header: value}), all wrapped.
     */
    private static String records(Table table, int width) {
        List<Boolean> words = new ArrayList<>();
        for (int c = 0; c < table.columns().size(); c++) {
            final int column = c;
            words.add(table.rows().stream().noneMatch(row -> row.get(column).contains(" ")));
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : table.rows()) {
            out.append("-".repeat(Math.min(width, 3))).append(' ');
            for (String line : wrapLines(row.getFirst(), width - 4, "    ")) out.append(line).append('\n');
            List<String> shortCells = new ArrayList<>();
            for (int c = 1; c < row.size(); c++)
                if (words.get(c)) shortCells.add(table.columns().get(c) + " " + row.get(c));
            if (!shortCells.isEmpty())
                for (String line : wrapLines(String.join(" | ", shortCells), width - 4, "  ")) out.append("    ").append(line).append('\n');
            for (int c = 1; c < row.size(); c++)
                if (!words.get(c))
                    for (String line : wrapLines(table.columns().get(c) + ": " + row.get(c), width - 4, "  "))
                        out.append("    ").append(line).append('\n');
        }
        return out.toString();
    }

    private static int[] naturalWidths(Table table, List<Integer> kept) {
        int[] widths = new int[kept.size()];
        for (int i = 0; i < widths.length; i++) {
            int c = kept.get(i);
            widths[i] = table.columns().get(c).length();
            for (List<String> row : table.rows()) widths[i] = Math.max(widths[i], row.get(c).length());
        }
        return widths;
    }

    /**
     * How narrow each column may get: its longest word (so numbers and one-word headers stay whole), between
     * {@link #MIN_COLUMN} and {@link #MAX_WORD}, and never more than its natural width.
     */
    private static int[] minimumWidths(Table table, List<Integer> kept, int[] natural) {
        int[] minimum = new int[kept.size()];
        for (int i = 0; i < minimum.length; i++) {
            int c = kept.get(i);
            int word = longestWord(table.columns().get(c));
            for (List<String> row : table.rows()) word = Math.max(word, longestWord(row.get(c)));
            minimum[i] = Math.min(natural[i], i == 0 ? FIRST_COLUMN : Math.max(MIN_COLUMN, Math.min(MAX_WORD, word)));
        }
        return minimum;
    }

    private static int longestWord(String text) {
        int longest = 0;
        for (String word : text.split(" ")) longest = Math.max(longest, word.length());
        return longest;
    }

    /**
     * Columns that cannot narrow keep their width; of the others the widest narrows first, never below its minimum,
     * so a long sentence wraps before a two-word header does.
     */
    private static int[] fit(int[] natural, int[] minimum, int width) {
        int[] widths = natural.clone();
        while (lineWidth(widths) > width) {   // narrow the widest
            int widest = -1;
            for (int i = 0; i < widths.length; i++)
                if (widths[i] > minimum[i] && (widest < 0 || widths[i] > widths[widest])) widest = i;
            if (widest < 0) break;   // as narrow as it goes; the line stays longer than the width
            widths[widest]--;
        }
        return widths;
    }

    private static int lineWidth(int[] widths) {
        int total = 0;
        for (int w : widths) total += w;
        return total + GAP.length() * Math.max(0, widths.length - 1);
    }

    private static List<String> pick(List<String> cells, List<Integer> kept) {
        return kept.stream().map(cells::get).toList();
    }

    /** One row, over several lines where a cell is wider than its column. */
    private static void appendRow(StringBuilder out, List<String> cells, int[] widths, boolean[] words) {
        List<List<String>> wrapped = new ArrayList<>();
        int height = 1;
        for (int c = 0; c < cells.size(); c++) {
            List<String> lines = wrapLines(cells.get(c), widths[c], "");
            wrapped.add(lines);
            height = Math.max(height, lines.size());
        }
        for (int l = 0; l < height; l++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < cells.size(); c++) {
                if (c > 0) line.append(GAP);
                String cell = l < wrapped.get(c).size() ? wrapped.get(c).get(l) : "";
                String pad = " ".repeat(Math.max(0, widths[c] - cell.length()));
                line.append(words[c] || wrapped.get(c).size() > 1 ? cell + pad : pad + cell);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }

    /** {@link TextWrap#lines}: shared with the CLI's listings. */
    static List<String> wrapLines(String text, int width, String indent) { return TextWrap.lines(text, width, indent); }
}
