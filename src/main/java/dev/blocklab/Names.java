package dev.blocklab;

import java.util.Collection;
import java.util.Locale;

/** A "did you mean" for a name the user mistyped: the known name within two edits of it, if one is. */
public final class Names {
    private Names() {}

    /** {@code "; did you mean 'NAME'?"} for the closest of {@code known} within two edits, else {@code ""}. */
    public static String didYouMean(String unknown, Collection<String> known) {
        String best = null;
        int bestDistance = 3;
        String typed = unknown.toLowerCase(Locale.ROOT);
        for (String k : known) {
            int d = distance(typed, k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best == null ? "" : "; did you mean '" + best + "'?";
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++)
                cur[j] = Math.min(Math.min(cur[j - 1], prev[j]) + 1, prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
