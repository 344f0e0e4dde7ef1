package dev.blocklab.load;


import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code --rate}: a constant {@code 1000/s}, a linear ramp {@code 100/s..5000/s} over the whole
 * duration, or steps {@code 100/s,500/s,1000/s}, each held for {@code stepNanos} (or the duration divided
 * equally when no step is given), the last rate holding to the end. A rate is a number with {@code /s},
 * {@code /m} or no unit (per second).
 */
public final class Rates {
    /** The highest rate accepted: one request a microsecond, beyond what one JVM can send or pace. */
    public static final double MAX_PER_SECOND = 1_000_000;

    private Rates() {}

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
            for (String part : t.split(",", -1)) rates.add(rate(text, part));
            long step = stepNanos > 0 ? stepNanos : Math.max(1, durationNanos / rates.size());
            return new Pacer.Steps(rates, step);
        }
        if (stepNanos > 0) throw new IllegalArgumentException("--step goes with steps such as --rate 100/s,500/s,1000/s");
        return new Pacer.Constant(rate(text, t));
    }

    /** One rate in requests per second. */
    static double rate(String whole, String part) {
        String t = part.trim();
        double per = 1;
        if (t.endsWith("/s")) t = t.substring(0, t.length() - 2);
        else if (t.endsWith("/m")) { t = t.substring(0, t.length() - 2); per = 60; }
        try {
            double v = Double.parseDouble(t) / per;
            if (!(v > 0) || Double.isInfinite(v) || t.isBlank()) throw new NumberFormatException();
            if (v > MAX_PER_SECOND)
                throw new IllegalArgumentException("--rate: '" + part.trim() + "' is over " + (long) MAX_PER_SECOND + "/s, the highest rate blocklab sends at");
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rate: '" + whole + "' is not a positive rate (e.g. 1000/s, 100/s..5000/s or 100/s,500/s)");
        }
    }
}
