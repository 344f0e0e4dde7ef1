package dev.blocklab.audit;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The time one subject (a model or variant) was running, on the wall clock; a blocking belongs to the window
 * in which it began.
 *
 * @param end null while the run is in progress
 */
public record RunWindow(String subject, Instant start, Instant end) {
    /** Blockings that began outside every window, e.g. between two runs. */
    public static final String OUTSIDE = "(between runs)";

    private static final String WARM_UP = " (warm-up)";

    /** The subject of {@code subject}'s warm-up runs, whose blockings are kept apart from its measured runs'. */
    public static String warmUp(String subject) { return subject + WARM_UP; }

    /** The subject whose warm-up {@code subject} is (see {@link #warmUp}), or {@code subject} itself. */
    public static String warmedUp(String subject) {
        return subject.endsWith(WARM_UP) ? subject.substring(0, subject.length() - WARM_UP.length()) : subject;
    }

    public RunWindow {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(start, "start");
    }

    /** The subject whose window holds {@code at} (the last one, if windows overlap), or {@link #OUTSIDE}. */
    public static String subjectAt(List<RunWindow> windows, Instant at) {
        for (int i = windows.size() - 1; i >= 0; i--) {
            RunWindow w = windows.get(i);
            if (!at.isBefore(w.start()) && (w.end() == null || at.isBefore(w.end()))) return w.subject();
        }
        return OUTSIDE;
    }
}
