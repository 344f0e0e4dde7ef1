package dev.blocklab.load;


import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Parses {@code --rate}: a constant {@code 1000/s}, a linear ramp {@code 100/s..5000/s} over the whole
 * duration, or steps {@code 100/s,500/s,1000/s}, each held for {@code stepNanos} (or the duration divided
 * equally when no step is given), the last rate holding to the end. A rate is a number with {@code /s},
 * {@code /m} or no unit (per second).
 */
public final class Rates {
    /** The highest rate accepted: one request a microsecond, beyond what one JVM can send or pace. */
    public static final double MAX_PER_SECOND = 1_000_000;

    /** Digits, a point, an exponent: what {@link Double#parseDouble} reads, without its NaN, Infinity, hex and suffixes. */
    private static final Pattern NUMBER = Pattern.compile("[0-9.eE+-]+");

    private Rates() {}

    /**
     * A rate's number as every report writes it, before its {@code /s} or {@code req/s}: whole with thousands
     * separators from 100 a second or when whole but for a computation's rounding ({@code 1,000}, {@code 20}, and
     * {@code 3} for a computed 2.9999999), two significant digits under 0.1 ({@code 0.04}: a rate above zero never
     * reads 0), else one decimal ({@code 21.9}, {@code 0.5}, {@code 2.0} for 1.96); {@code unbounded} when infinite.
     */
    public static String number(double perSecond) {
        if (Double.isInfinite(perSecond)) return "unbounded";
        if (perSecond >= 100 || Math.abs(perSecond - Math.rint(perSecond)) <= 1e-6 * Math.max(1, Math.abs(perSecond)))
            return String.format(java.util.Locale.ROOT, "%,.0f", perSecond);
        if (Math.abs(perSecond) < 0.1)
            return new java.math.BigDecimal(perSecond).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
        return String.format(java.util.Locale.ROOT, "%.1f", perSecond);
    }

    /** The pacer for {@code text}; errors name {@code --rate} or {@code --step}. {@code stepNanos} 0 means none. */
    public static Pacer parse(String text, long durationNanos, long stepNanos) {
        String t = text.trim();
        if (t.contains("..")) {
            if (stepNanos > 0) throw new IllegalArgumentException("--step goes with steps such as --rate 100/s,500/s, not a ramp");
            String[] ends = t.split("\\.\\.", -1);
            if (ends.length != 2) throw new IllegalArgumentException("--rate: '" + text + "' is not a ramp (e.g. 100/s..5000/s)");
            return new Pacer.LinearRamp(rate(text, ends[0]), rate(text, ends[1]), durationNanos);
        }
        if (t.contains(",")) {
            List<Double> rates = new ArrayList<>();
            String[] parts = t.split(",", -1);
            for (String part : parts) rates.add(rate(text, part));
            long step = stepNanos > 0 ? stepNanos : Math.max(1, durationNanos / rates.size());
            if ((rates.size() - 1) * (double) step >= durationNanos) {
                List<String> never = new ArrayList<>();
                for (int i = 0; i < parts.length; i++) if (i * (double) step >= durationNanos) never.add("'" + parts[i].trim() + "'");
                throw new IllegalArgumentException("--step: " + rates.size() + " rates held " + seconds(step) + " each need a duration over "
                        + seconds((rates.size() - 1) * step) + ", and the duration is " + seconds(durationNanos)
                        + ": " + String.join(", ", never) + " would never be sent (lengthen the duration or shorten --step)");
            }
            return new Pacer.Steps(rates, step);
        }
        if (stepNanos > 0) throw new IllegalArgumentException("--step goes with steps such as --rate 100/s,500/s,1000/s");
        return new Pacer.Constant(rate(text, t));
    }

    /** A duration in seconds for a message, e.g. {@code 2s} or {@code 0.25s}. */
    private static String seconds(long nanos) {
        return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
    }

    /** One rate within a {@code --rate} value, bounded by {@link #MAX_PER_SECOND}; errors quote {@code whole}. */
    static double rate(String whole, String part) {
        double v;
        try {
            v = perSecond(part);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rate: '" + whole + "' is not a positive rate (e.g. 1000/s, 100/s..5000/s or 100/s,500/s)");
        }
        if (v > MAX_PER_SECOND)
            throw new IllegalArgumentException("--rate: '" + part.trim() + "' is over " + (long) MAX_PER_SECOND + "/s, the highest rate blocklab sends at");
        return v;
    }

    /**
     * The one syntax of a single rate, in requests per second: a positive decimal number followed by {@code /s},
     * {@code /m} (per minute) or nothing (per second), spaces allowed around it, e.g. {@code 200/s}, {@code 30/m},
     * {@code 0.5}, {@code 1e3 /s}. Not bounded above: the callers that send bound it.
     *
     * @throws NumberFormatException when {@code text} is not such a rate (callers word the error for their input)
     */
    public static double perSecond(String text) {
        String t = text.trim();
        double per = 1;
        if (t.endsWith("/s")) t = t.substring(0, t.length() - 2).trim();
        else if (t.endsWith("/m")) { t = t.substring(0, t.length() - 2).trim(); per = 60; }
        if (!NUMBER.matcher(t).matches()) throw new NumberFormatException("not a rate: " + text);
        double v = Double.parseDouble(t) / per;
        if (!(v > 0) || Double.isInfinite(v)) throw new NumberFormatException("not a positive rate: " + text);
        return v;
    }
}
