package dev.blocklab.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** A seed article's table of figures, written as the article prints it: one helper for every experiment that quotes one. */
final class ArticleFigures {
    private ArticleFigures() {}

    /**
     * The figures of {@code table}, {@code "name millis, name millis, ..."}, in milliseconds by name in the
     * table's order; {@code -} stands for a row the article has no figure for (null in the map).
     */
    static Map<String, Double> millis(String table) {
        Map<String, Double> figures = new LinkedHashMap<>();
        for (String row : table.split(",")) {
            String[] nameAndMillis = row.trim().split("\\s+");
            if (nameAndMillis.length != 2) throw new IllegalArgumentException("article table row '" + row.trim() + "' is not 'name millis'");
            figures.put(nameAndMillis[0], nameAndMillis[1].equals("-") ? null : Double.valueOf(nameAndMillis[1]));
        }
        return Collections.unmodifiableMap(figures);
    }
}
