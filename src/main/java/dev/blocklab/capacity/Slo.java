package dev.blocklab.capacity;

import dev.blocklab.workload.Durations;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One service-level objective: a latency percentile at most a duration ({@code p99<=550ms}) or a success share
 * at least a percentage ({@code success>=99.9%}).
 *
 * @param metric    {@code p50}, {@code p90}, {@code p99}, {@code p999} or {@code success}
 * @param limit     the bound: milliseconds for a percentile, a share in [0, 1] for success
 * @param text      the objective as written, for reports
 */
public record Slo(String metric, double limit, String text) {
    private static final Pattern LATENCY = Pattern.compile("^(p50|p90|p99|p999)\\s*<=\\s*(\\S+)$");
    private static final Pattern SUCCESS = Pattern.compile("^success\\s*>=\\s*([0-9.]+)\\s*%$");

    /** The objectives when none is given: {@code p99<=550ms} and {@code success>=99.9%}. */
    public static final List<Slo> DEFAULTS = List.of(parse("p99<=550ms"), parse("success>=99.9%"));

    /** Parses {@code p99<=550ms} or {@code success>=99.9%}; a bad objective is one line naming the problem. */
    public static Slo parse(String text) {
        String t = text.trim();
        Matcher m = LATENCY.matcher(t);
        if (m.matches()) {
            long nanos;
            try {
                nanos = Durations.parseNanos(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("SLO '" + text + "': " + e.getMessage());
            }
            if (nanos <= 0) throw new IllegalArgumentException("SLO '" + text + "': the latency bound must be > 0");
            return new Slo(m.group(1), nanos / 1e6, t.replace(" ", ""));
        }
        m = SUCCESS.matcher(t);
        if (m.matches()) {
            double percent;
            try {
                percent = Double.parseDouble(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("SLO '" + text + "': '" + m.group(1) + "' is not a number");
            }
            if (percent <= 0 || percent > 100)
                throw new IllegalArgumentException("SLO '" + text + "': the success share must be in (0, 100] %");
            return new Slo("success", percent / 100, t.replace(" ", ""));
        }
        throw new IllegalArgumentException("SLO '" + text + "' is not of the form 'p99<=550ms' (p50, p90, p99, p999) or 'success>=99.9%'");
    }

    /** One-sided 95 % for the bound on a success share (the normal quantile 1.645). */
    static final double Z_95 = 1.645;

    /**
     * Why {@code m} breaks this objective, or empty when it meets it. A success share breaks it only when the run
     * shows the share below the bound: when even the upper end of its one-sided 95 % Wilson interval is below. One
     * failure in 20 requests (95 %) does not show a share below 97 %; 50 in 1,000 do (upper end 96.1 %).
     */
    public Optional<String> breach(Measurement m) {
        if (metric.equals("success")) {
            if (m.requests() <= 0) return Optional.of("success: no request completed");
            double upper = successUpperBound(m.successRatio(), m.requests());
            // a share parsed from a percentage (99.9 / 100) is a hair above the same share counted (999 / 1000)
            return m.successRatio() >= limit - 1e-12 || upper >= limit - 1e-12 ? Optional.empty() : Optional.of(String.format(Locale.ROOT,
                    "success %.2f %% < %s (of %,d requests; the upper end of its 95 %% interval %.2f %%)",
                    m.successRatio() * 100, pct(limit), m.requests(), upper * 100));
        }
        double v = m.latencyMillis(metric);
        return v <= limit ? Optional.empty() : Optional.of(String.format(Locale.ROOT, "%s %,.1f ms > %s ms", metric, v, separated(limit)));
    }

    /**
     * When {@code m} meets this success objective only because its requests are too few to show the share below it
     * (see {@link #breach}): the sentence that says so, e.g. {@code success 90.0 % of 40 requests, below 95 % but too
     * few to show it (its 95 % interval reaches 95.4 %)}; empty otherwise.
     */
    public Optional<String> metOnlyByTheInterval(Measurement m) {
        if (!metric.equals("success") || m.successRatio() >= limit - 1e-12 || breach(m).isPresent()) return Optional.empty();
        return Optional.of(String.format(Locale.ROOT, "success %.1f %% of %,d requests, below %s but too few to show it (its 95 %% interval reaches %.1f %%)",
                m.successRatio() * 100, m.requests(), pct(limit), successUpperBound(m.successRatio(), m.requests()) * 100));
    }

    /** {@link #metOnlyByTheInterval(Measurement)} of every objective in {@code slos}, in order. */
    public static java.util.List<String> metOnlyByTheInterval(java.util.List<Slo> slos, Measurement m) {
        return slos.stream().map(slo -> slo.metOnlyByTheInterval(m)).flatMap(Optional::stream).toList();
    }

    /** The upper end of the one-sided 95 % Wilson score interval of a share measured over {@code n} trials. */
    static double successUpperBound(double share, long n) {
        if (n <= 0) return 1;
        double z2 = Z_95 * Z_95, center = share + z2 / (2.0 * n);
        double half = Z_95 * Math.sqrt(share * (1 - share) / n + z2 / (4.0 * n * n));
        return Math.min(1, (center + half) / (1 + z2 / n));
    }

    private static String pct(double share) { return trim(share * 100) + " %"; }

    /** {@link #trim} with thousands separated: {@code 1,500}, {@code 99.5}. */
    private static String separated(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : trim(v);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
