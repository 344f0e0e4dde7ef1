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
