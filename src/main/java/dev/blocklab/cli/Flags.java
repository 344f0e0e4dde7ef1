package dev.blocklab.cli;

import dev.blocklab.workload.Durations;

/** Parsing of flag values, each error naming its flag. */
final class Flags {
    private Flags() {}

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
}
