package dev.blocklab.cli;

import dev.blocklab.TextFiles;
import dev.blocklab.workload.Durations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Parsing of flag values, each error naming its flag. */
final class Flags {
    private Flags() {}

    /**
     * True when {@code option} was given on the command line of {@code command} (a mixin's MIXEE spec), not just
     * defaulted; false where there is no command line (a mixin built outside picocli).
     */
    static boolean given(picocli.CommandLine.Model.CommandSpec command, String option) {
        return command != null && command.commandLine().getParseResult().hasMatchedOption(option);
    }

    static int positive(String flag, int value) {
        if (value < 1) throw new IllegalArgumentException(flag + " must be at least 1, got " + value);
        return value;
    }

    static long duration(String flag, String text) {
        try {
            long nanos = Durations.parseNanos(text);
            if (nanos <= 0) throw new IllegalArgumentException("must be positive");
            return nanos;
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().contains("longest")) throw new IllegalArgumentException(flag + ": " + e.getMessage());
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a positive duration (e.g. 10s, 500ms)");
        }
    }

    /**
     * Checks, before any work, that {@code file} (when given) can be written at the end: its directory is made as
     * writing it would, it is not a directory, and it can be opened for writing (an existing file is left as it
     * is; a new one is created and removed again).
     */
    static void writable(String flag, Path file) {
        if (file == null) return;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            if (Files.isDirectory(file)) throw new IllegalArgumentException(flag + ": cannot write " + file + ": is a directory");
            if (Files.exists(file)) {
                try (var unchanged = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
                    // opened, not written
                }
            } else {
                Files.delete(Files.createFile(file));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(flag + ": cannot write " + file + ": " + TextFiles.reason(e));
        }
    }

    /**
     * Refuses two output flags that name one file, which would overwrite each other (the HTML page over the saved
     * results); {@code flagsAndFiles} alternate a flag and its {@link Path}, null for a flag not given.
     */
    static void distinct(Object... flagsAndFiles) {
        java.util.Map<Path, String> seen = new java.util.HashMap<>();
        for (int i = 0; i < flagsAndFiles.length; i += 2) {
            String flag = (String) flagsAndFiles[i];
            Path file = (Path) flagsAndFiles[i + 1];
            if (file == null) continue;
            String earlier = seen.putIfAbsent(file.toAbsolutePath().normalize(), flag);
            if (earlier != null)
                throw new IllegalArgumentException(flag + " " + file + " is also " + earlier + "'s file: one would overwrite the other; give each its own file");
        }
    }
}
