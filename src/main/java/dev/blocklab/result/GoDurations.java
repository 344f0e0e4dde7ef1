package dev.blocklab.result;

import java.util.Locale;

/**
 * Durations printed as Go's {@code time.Duration} prints them ({@code 1.5s}, {@code 108.27ms}, {@code 850µs},
 * {@code 0s}), exactly, the way vegeta's reports show them.
 */
public final class GoDurations {
    private GoDurations() {}

    /** {@code nanos} in the largest unit under which it is at least 1, with every significant decimal. */
    public static String format(long nanos) {
        if (nanos == 0) return "0s";
        String sign = nanos < 0 ? "-" : "";
        long n = Math.abs(nanos);
        if (n < 1_000) return sign + n + "ns";
        if (n < 1_000_000) return sign + trim(n, 1_000) + "µs";
        if (n < 1_000_000_000) return sign + trim(n, 1_000_000) + "ms";
        return sign + trim(n, 1_000_000_000) + "s";
    }

    /** {@code n / unit} with every significant decimal and no trailing zeros, exactly (no floating point). */
    private static String trim(long n, long unit) {
        long whole = n / unit, frac = n % unit;
        if (frac == 0) return Long.toString(whole);
        int digits = Long.toString(unit).length() - 1;
        String f = String.format(Locale.ROOT, "%0" + digits + "d", frac).replaceAll("0+$", "");
        return whole + "." + f;
    }
}
