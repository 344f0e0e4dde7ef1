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

    /** A rate such as {@code 500/s}, {@code 500}, or {@code 30/m}, in requests per second. */
    static double rate(String flag, String text) {
        String t = text.trim();
        double per = 1;
        if (t.endsWith("/s")) t = t.substring(0, t.length() - 2);
        else if (t.endsWith("/m")) { t = t.substring(0, t.length() - 2); per = 60; }
        try {
            double v = Double.parseDouble(t) / per;
            if (!(v > 0) || Double.isInfinite(v)) throw new NumberFormatException();
            if (v > dev.blocklab.load.Rates.MAX_PER_SECOND)
                throw new IllegalArgumentException(flag + ": '" + text + "' is over " + (long) dev.blocklab.load.Rates.MAX_PER_SECOND
                        + "/s, the highest rate blocklab sends at");
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a positive rate (e.g. 500/s)");
        }
    }
}
