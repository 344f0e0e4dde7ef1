package dev.blocklab.cli;

import dev.blocklab.report.ReportFormat;

import java.util.Map;

/**
 * How wide text reports are: the terminal's width from {@code COLUMNS} (the launcher exports it when standard
 * output is a terminal), {@value #DEFAULT_COLUMNS} columns otherwise, or every column with {@code --wide}.
 */
final class TextWidth {
    static final int DEFAULT_COLUMNS = 120;
    /** The narrowest text reports get: a narrower terminal gets this many columns (its lines wrap). */
    static final int MIN_COLUMNS = 40;

    private TextWidth() {}

    /** The width for text reports given {@code --wide} and the environment. */
    static int columns(boolean wide, Map<String, String> env) {
        if (wide) return ReportFormat.WIDE;
        String columns = env.get("COLUMNS");
        if (columns != null && columns.strip().matches("\\d{1,5}")) {
            int n = Integer.parseInt(columns.strip());
            if (n > 0) return Math.max(MIN_COLUMNS, n);   // 0: no terminal width known
        }
        return DEFAULT_COLUMNS;
    }

    static int columns(boolean wide) { return columns(wide, System.getenv()); }
}
