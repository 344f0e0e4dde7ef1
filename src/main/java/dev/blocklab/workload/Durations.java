package dev.blocklab.workload;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses and prints durations such as {@code 1s}, {@code 200ms}, {@code 1.5s}, {@code 250us}, {@code 2m}. */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|h)");

    /** The longest duration accepted anywhere (a week): beyond it a run could never end, and nanoseconds overflow. */
    public static final long MAX_NANOS = 168 * 3_600_000_000_000L;

    private Durations() {}

    /** The largest {@code --time-scale}: it turns a second into a microsecond; beyond it every delay rounds to nothing. */
    public static final long MAX_TIME_SCALE = 1_000_000;

    /** {@code divisor} when it is a time scale from 1 to {@link #MAX_TIME_SCALE}; else a one-line error naming the flag. */
    public static long checkTimeScale(long divisor) {
        if (divisor < 1) throw new IllegalArgumentException("--time-scale must be at least 1, got " + divisor);
        if (divisor > MAX_TIME_SCALE)
            throw new IllegalArgumentException("--time-scale must be at most " + MAX_TIME_SCALE + " (a second becomes a microsecond), got " + divisor);
        return divisor;
    }

    /** Parses a duration with a unit; throws IllegalArgumentException naming the text otherwise. */
    public static long parseNanos(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches())
            throw new IllegalArgumentException("'" + text + "' is not a duration (use a number and a unit: ns, us, ms, s, m, h; e.g. 200ms)");
        double value = Double.parseDouble(m.group(1));
        double unitNanos = switch (m.group(2)) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> throw new AssertionError(m.group(2));
        };
        double nanos = value * unitNanos;
        if (nanos > MAX_NANOS)
            throw new IllegalArgumentException("'" + text.trim() + "' is longer than 168h, the longest duration blocklab accepts");
        return Math.round(nanos);
    }

    /** Prints nanoseconds with the largest unit that keeps it readable, e.g. {@code 1.5s}, {@code 200ms}. */
    public static String format(long nanos) {
        if (nanos == 0) return "0ms";
        if (nanos % 1_000_000_000L == 0) return nanos / 1_000_000_000L + "s";
        if (nanos >= 1_000_000_000L) return trim(nanos / 1e9) + "s";
        if (nanos % 1_000_000L == 0) return nanos / 1_000_000L + "ms";
        if (nanos >= 1_000_000L) return trim(nanos / 1e6) + "ms";
        if (nanos >= 1_000L) return trim(nanos / 1e3) + "us";
        return nanos + "ns";
    }

    /**
     * Nanoseconds for a sentence a person reads, not a flag parses back: two decimals under 10 of its unit, else
     * one, thousands separated, no trailing zeros, the unit after a
     * space ({@code 2,286.6 s}, {@code 12,500 s}, {@code 1.05 s}, {@code 91.4 ms}, {@code 50 us}, {@code 0 ms}), so a
     * figure multiplied in a formula reads true. {@link #format} is exact and parses back; use it in commands.
     */
    public static String readable(long nanos) {
        if (nanos == 0) return "0 ms";
        if (Math.abs(nanos) >= 1_000_000_000L) return digits(nanos / 1e9) + " s";
        if (Math.abs(nanos) >= 1_000_000L) return digits(nanos / 1e6) + " ms";
        if (Math.abs(nanos) >= 1_000L) return digits(nanos / 1e3) + " us";
        return nanos + " ns";
    }

    /** Two decimals under 10, else one, with thousands separators, without trailing zeros. */
    private static String digits(double v) {
        return withoutTrailingZeros(String.format(Locale.ROOT, Math.abs(v) < 10 ? "%,.2f" : "%,.1f", v));
    }

    private static String trim(double v) {
        return withoutTrailingZeros(String.format(Locale.ROOT, "%.3f", v));
    }

    /** A number formatted with decimals, without its trailing zeros (and its point when none is left). */
    private static String withoutTrailingZeros(String decimals) {
        String s = decimals.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
