package dev.blocklab.shard;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Parses {@code --start-at}: the common wall-clock instant at which every shard's measured schedule starts. An
 * ISO-8601 instant ({@code 2026-11-23T17:30:00Z}), epoch milliseconds ({@code 1795455000000}), or a barrier file
 * {@code @FILE}: wait until FILE exists and holds such an instant (a coordinator writes it once every worker is
 * up, on a volume they share). While it waits, a worker marks itself ready with an empty file
 * {@code FILE.ready.PID} beside it, so the coordinator can count the workers that are up ({@link #readyCount}).
 */
public final class StartAt {
    /** How long a worker waits for a barrier file before giving up. */
    public static final long BARRIER_TIMEOUT_MILLIS = 600_000;

    private StartAt() {}

    /** The instant {@code text} names; a barrier file is polled every 100 ms on {@code clock} for up to {@code timeoutMillis}. */
    public static Instant parse(String text, Clock clock, long timeoutMillis) {
        String t = text.trim();
        if (t.startsWith("@")) return barrier(Path.of(t.substring(1)), clock, timeoutMillis);
        try {
            if (t.matches("\\d{10,16}")) return Instant.ofEpochMilli(Long.parseLong(t));
            return Instant.parse(t);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException("--start-at: '" + text + "' is not an ISO instant (2026-11-23T17:30:00Z), epoch milliseconds or @BARRIER-FILE");
        }
    }

    /** How many workers have marked themselves ready beside {@code barrier}. */
    public static long readyCount(Path barrier) {
        Path dir = barrier.toAbsolutePath().getParent();
        String prefix = barrier.getFileName() + ".ready.";
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Marks this worker ready beside {@code file}, waits for the instant, and removes the mark again whatever the
     * outcome (the coordinator counts marks only before it writes the barrier), so no marks are left behind.
     */
    private static Instant barrier(Path file, Clock clock, long timeoutMillis) {
        Path ready = file.resolveSibling(file.getFileName() + ".ready." + ProcessHandle.current().pid());
        try {
            if (ready.toAbsolutePath().getParent() != null && Files.isDirectory(ready.toAbsolutePath().getParent()) && !Files.exists(ready))
                Files.createFile(ready);
        } catch (IOException e) {
            // a read-only barrier volume: the worker still waits, it just cannot say it is up
        }
        try {
            return awaitBarrier(file, clock, timeoutMillis);
        } finally {
            try {
                Files.deleteIfExists(ready);
            } catch (IOException e) {
                // a read-only volume: there was no mark to remove
            }
        }
    }

    private static Instant awaitBarrier(Path file, Clock clock, long timeoutMillis) {
        long deadline = clock.millis() + timeoutMillis;
        while (true) {
            try {
                if (Files.isRegularFile(file)) {
                    String content = Files.readString(file).trim();
                    if (!content.isEmpty()) {
                        if (content.startsWith("@")) throw new IllegalArgumentException("--start-at: barrier " + file + " names another barrier");
                        try {
                            return parse(content, clock, 0);
                        } catch (IllegalArgumentException e) {   // name the file: the instant was not on the command line
                            throw new IllegalArgumentException("--start-at: barrier " + file + " holds '" + content
                                    + "', not an ISO instant (2026-11-23T17:30:00Z) or epoch milliseconds");
                        }
                    }
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("--start-at: cannot read barrier " + file + ": " + dev.blocklab.TextFiles.reason(e));
            }
            if (clock.millis() >= deadline)
                throw new IllegalArgumentException("--start-at: barrier " + file + " did not appear within " + timeoutMillis / 1000 + "s");
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for barrier " + file);
            }
        }
    }
}
