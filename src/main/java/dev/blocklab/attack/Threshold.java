package dev.blocklab.attack;

import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.workload.Durations;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure condition such as {@code p99>600ms} or {@code success<99%}: the attack fails (exit code 1) when the
 * condition holds. Metrics: latency percentiles {@code min mean p50 p90 p95 p99 p999 p9999 max} (from the
 * intended send time; the limit is a duration), {@code success} (a percentage), {@code errors} and
 * {@code late} (counts of requests without a response and of late sends), and the bare condition
 * {@code instrument-limited} (holds when the attacker, not the target, set the numbers; see
 * {@link InstrumentHealth}), stored as the metric {@code instrument-limited} {@code >= 1}.
 *
 * @param metric     one of the names above
 * @param comparison how the measured value is compared with the limit
 * @param limit      milliseconds for latencies, a fraction (0.99) for success, a count otherwise
 * @param text       the condition as written
 */
public record Threshold(String metric, Comparison comparison, double limit, String text) {

    private static final Set<String> LATENCIES = Set.of("min", "mean", "p50", "p90", "p95", "p99", "p999", "p9999", "max");
    /** The bare condition (and its metric): the attack's instrument-limited verdict. */
    public static final String INSTRUMENT_LIMITED = "instrument-limited";
    private static final Pattern SYNTAX = Pattern.compile("\\s*([a-z0-9]+)\\s*(>=|<=|>|<)\\s*(\\S+)\\s*");

    /** The comparisons, each with its symbol. */
    public enum Comparison {
        GT(">"), GE(">="), LT("<"), LE("<=");
        final String symbol;
        Comparison(String symbol) { this.symbol = symbol; }
        boolean holds(double measured, double limit) {
            return switch (this) {
                case GT -> measured > limit;
                case GE -> measured >= limit;
                case LT -> measured < limit;
                case LE -> measured <= limit;
            };
        }
        static Comparison of(String symbol) {
            for (Comparison c : values()) if (c.symbol.equals(symbol)) return c;
            throw new IllegalArgumentException(symbol);
        }
    }

    public Threshold {
        if (!LATENCIES.contains(metric) && !Set.of("success", "errors", "late", INSTRUMENT_LIMITED).contains(metric))
            throw new IllegalArgumentException("unknown threshold metric '" + metric + "'");
    }

    /** Parses a condition; errors name {@code --fail-if} and give an example. */
    public static Threshold parse(String text) {
        if (text.trim().equalsIgnoreCase(INSTRUMENT_LIMITED)) return new Threshold(INSTRUMENT_LIMITED, Comparison.GE, 1, INSTRUMENT_LIMITED);
        Matcher m = SYNTAX.matcher(text.toLowerCase(Locale.ROOT));
        String hint = " (e.g. 'p99>600ms', 'success<99%', 'errors>0', 'instrument-limited'; metrics: min mean p50 p90 p95 p99 p999 p9999 max success errors late)";
        if (!m.matches()) throw new IllegalArgumentException("--fail-if: '" + text + "' is not a condition" + hint);
        String metric = m.group(1), value = m.group(3);
        Comparison c = Comparison.of(m.group(2));
        double limit;
        if (LATENCIES.contains(metric)) {
            try {
                limit = Durations.parseNanos(value) / 1e6;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--fail-if: '" + text + "': " + metric + " needs a duration such as 600ms, not '" + value + "'");
            }
        } else if (metric.equals("success")) {
            if (!value.endsWith("%")) throw new IllegalArgumentException("--fail-if: '" + text + "': success needs a percentage such as 99%");
            limit = number(text, value.substring(0, value.length() - 1)) / 100;
            if (limit > 1) throw new IllegalArgumentException("--fail-if: '" + text + "': a percentage above 100%");
        } else if (metric.equals("errors") || metric.equals("late")) {
            limit = number(text, value);
            if (limit != Math.rint(limit))
                throw new IllegalArgumentException("--fail-if: '" + text + "': " + metric + " is a count of requests: give a whole number, not '" + value + "'");
        } else {
            throw new IllegalArgumentException("--fail-if: '" + text + "': unknown metric '" + metric + "'" + hint);
        }
        return new Threshold(metric, c, limit, text.trim());
    }

    private static double number(String text, String value) {
        try {
            double v = Double.parseDouble(value);
            if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) throw new NumberFormatException();
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--fail-if: '" + text + "': '" + value + "' is not a non-negative number");
        }
    }

    /** The measured value in this threshold's unit. */
    public double measure(AttackResult r) {
        LatencyMillis l = r.latencyMillis();
        return switch (metric) {
            case "min" -> l.min();
            case "mean" -> l.mean();
            case "p50" -> l.p50();
            case "p90" -> l.p90();
            case "p95" -> l.p95();
            case "p99" -> l.p99();
            case "p999" -> l.p999();
            case "p9999" -> l.p9999();
            case "max" -> l.max();
            case "success" -> r.successRatio();
            case "errors" -> r.errorCount();
            case "late" -> r.lateSends();
            case INSTRUMENT_LIMITED -> r.health().instrumentLimited() ? 1 : 0;
            default -> throw new AssertionError(metric);
        };
    }

    /** A line such as {@code fail-if p99>600ms: p99 was 712.3ms}, when the condition holds. */
    public Optional<String> violation(AttackResult r) {
        double measured = measure(r);
        if (!comparison.holds(measured, limit)) return Optional.empty();
        if (metric.equals(INSTRUMENT_LIMITED)) return Optional.of("fail-if " + text + ": " + r.health().verdictLine());
        String shown = LATENCIES.contains(metric) ? String.format(Locale.ROOT, "%.3fms", measured)
                : metric.equals("success") ? String.format(Locale.ROOT, "%.2f%%", measured * 100)
                : String.format(Locale.ROOT, "%.0f", measured);
        return Optional.of("fail-if " + text + ": " + metric + " was " + shown);
    }
}
