package dev.blocklab.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * How long each step took the last time it ran, by key (e.g. {@code reproduce.frameworks.delays-10.simulated}),
 * in {@code ~/.cache/blocklab/durations.properties} (the system property {@code blocklab.durations} names
 * another file): what {@link OverallProgress} estimates the time left from. Best effort: a file that cannot be
 * read or written only costs the estimate.
 */
final class DurationHistory {
    private final Path file;
    private final Properties durations = new Properties();

    private DurationHistory(Path file) {
        this.file = file;
        if (file != null && Files.isRegularFile(file))
            try (Reader r = Files.newBufferedReader(file)) {
                durations.load(r);
            } catch (IOException | IllegalArgumentException e) {
                durations.clear();
            }
    }

    /** The user's history file, or the one {@code -Dblocklab.durations=FILE} names. */
    static DurationHistory load() {
        String override = System.getProperty("blocklab.durations");
        if (override != null) return new DurationHistory(Path.of(override));
        String home = System.getProperty("user.home");
        return new DurationHistory(home == null ? null : Path.of(home, ".cache", "blocklab", "durations.properties"));
    }

    /** The last duration recorded for {@code key}, in nanoseconds; 0 when none. */
    synchronized long nanos(String key) {
        try {
            return Long.parseLong(durations.getProperty(key, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Records {@code key}'s duration and writes the file. */
    synchronized void record(String key, long nanos) {
        durations.setProperty(key, Long.toString(nanos));
        if (file == null) return;
        try {
            if (file.getParent() != null) Files.createDirectories(file.getParent());
            try (Writer w = Files.newBufferedWriter(file)) {
                durations.store(w, "blocklab: how long each experiment took last time, for the progress line's estimate");
            }
        } catch (IOException e) {
            // best effort: the next run has no estimate for this step
        }
    }
}
