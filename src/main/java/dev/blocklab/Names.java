package dev.blocklab;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** Names shown to the user: a "did you mean" for a mistyped one, and short labels that tell files apart. */
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

    /**
     * A label for each of {@code files}, in order: the shortest end of its path that no other file's path ends in
     * ({@code fan.jsonl} alone; {@code a/fan.jsonl} and {@code b/fan.jsonl} side by side), so that sources read from
     * files of one name are told apart. The same file given twice gets one label.
     */
    public static List<String> fileLabels(List<Path> files) {
        List<Path> paths = files.stream().map(f -> f.toAbsolutePath().normalize()).toList();
        List<String> labels = new ArrayList<>();
        for (Path p : paths) {
            int names = p.getNameCount(), k = 1;
            while (k < names && endsLikeAnother(p, k, paths)) k++;
            labels.add(p.subpath(names - k, names).toString());
        }
        return labels;
    }

    /** Whether a path of {@code paths} other than {@code p} ends in the same last {@code k} names as {@code p}. */
    private static boolean endsLikeAnother(Path p, int k, List<Path> paths) {
        Path end = p.subpath(p.getNameCount() - k, p.getNameCount());
        return paths.stream().anyMatch(other -> !other.equals(p) && other.endsWith(end));
    }
}
