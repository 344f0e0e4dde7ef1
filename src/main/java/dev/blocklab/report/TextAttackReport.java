package dev.blocklab.report;

import dev.blocklab.result.AttackResult;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.InstrumentRows;
import dev.blocklab.result.GoDurations;
import dev.blocklab.result.LatencyMillis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * vegeta's text report: one line per metric, a bracketed legend, values aligned in a column; durations printed
 * as Go does ({@code 1.5s}, {@code 108.27ms}, {@code 850µs}). Adds the 99.9th and 99.99th percentiles, a
 * service-time line and a late-sends line, says how many requests were cut off at the end (when any were), and
 * says what the latency clock starts on. A failed target (no request, or under 1 % of them, succeeded) is the first
 * line; an instrument-limited verdict comes first too, any other verdict (OK, or not judged) near the end. An
 * attack that measured nothing (stopped in its warm-up) says so in its first line, with no table of zeros.
 */
final class TextAttackReport implements Report<AttackResult> {

    @Override public String render(AttackResult r) {
        if (r.measuredNothing())
            return "NOTHING MEASURED: no request of the measured schedule was sent, so there is no latency, rate or status figure.\n"
                    + "Target: " + r.description() + r.stopNote() + "\n" + r.health().verdictLine() + "\n";
        List<String[]> rows = new ArrayList<>();
        rows.add(row("Requests", "[total, rate, throughput]",
                r.requests() + ", " + rate(r.ratePerSecond()) + ", " + rate(r.throughputPerSecond())));
        rows.add(row("Duration", "[total, attack, wait]",
                GoDurations.format(r.totalNanos()) + ", " + GoDurations.format(r.attackNanos()) + ", " + GoDurations.format(r.waitNanos())));
        rows.add(row("Latencies", "[min, mean, 50, 90, 95, 99, 99.9, 99.99, max]", latencies(r.latencyMillis())));
        rows.add(row("Service time", "[min, mean, 50, 90, 95, 99, 99.9, 99.99, max]", latencies(r.serviceTimeMillis())));
        rows.add(row("Bytes In", "[total, mean]", r.bytesIn() + ", " + fixed(mean(r.bytesIn(), r.requests()))));
        rows.add(row("Bytes Out", "[total, mean]", r.bytesOut() + ", " + fixed(mean(r.bytesOut(), r.requests()))));
        rows.add(row("Success", "[ratio]", fixed(r.successRatio() * 100) + "%"));
        StringBuilder codes = new StringBuilder();
        for (Map.Entry<Integer, Long> e : r.statusCodes().entrySet()) {
            if (!codes.isEmpty()) codes.append("  ");
            codes.append(e.getKey()).append(':').append(e.getValue());
        }
        rows.add(row("Status Codes", "[code:count]", codes.toString()));
        for (List<String> health : InstrumentRows.of(r)) rows.add(health.toArray(String[]::new));
        InstrumentHealth h = r.health();

        int nameWidth = 0, legendWidth = 0;
        for (String[] row : rows) {
            nameWidth = Math.max(nameWidth, row[0].length());
            legendWidth = Math.max(legendWidth, row[1].length());
        }
        StringBuilder out = new StringBuilder();
        if (r.targetFailed()) out.append(targetFailedLine(r)).append('\n');
        if (h.instrumentLimited()) out.append(h.verdictLine()).append('\n');
        for (String[] row : rows) {
            out.append(pad(row[0], nameWidth + 2)).append(pad(row[1], legendWidth + 2)).append(row[2]).append('\n');
        }
        out.append("Error Set:\n");
        for (Map.Entry<String, Long> e : r.errors().entrySet()) {
            out.append(e.getKey());
            if (e.getValue() > 1) out.append(" (x").append(e.getValue()).append(')');
            out.append('\n');
        }
        out.append("Target: ").append(r.description()).append(r.stopNote()).append('\n');
        if (r.cutOff() > 0)
            out.append(r.cutOff()).append(r.cutOff() == 1 ? " request" : " requests")
                    .append(" cut off at the end: their latency counts up to the report, a lower bound.\n");
        if (!h.instrumentLimited()) out.append(h.verdictLine()).append('\n');
        out.append("Latencies count from each request's intended send time (free of coordinated omission); service time from when it left on a connection; the difference is the attacker's own delay plus the connection wait; 'From send' counts from each request's actual send, as vegeta and wrk do.\n");
        return out.toString();
    }

    /** {@code TARGET FAILED: 0 of 5 requests succeeded (the most common error (xN); and K other errors)}. */
    static String targetFailedLine(AttackResult r) {
        StringBuilder line = new StringBuilder("TARGET FAILED: ").append(r.successes()).append(" of ").append(r.requests())
                .append(r.requests() == 1 ? " request" : " requests").append(" succeeded");
        Map.Entry<String, Long> top = r.errors().entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
        if (top != null) {
            line.append(" (").append(top.getKey());
            if (top.getValue() > 1) line.append(" (x").append(top.getValue()).append(')');
            int others = r.errors().size() - 1;
            if (others > 0) line.append("; and ").append(others).append(others == 1 ? " other error" : " other errors");
            line.append(')');
        }
        return line.append('.').toString();
    }

    private static String[] row(String name, String legend, String values) { return new String[]{name, legend, values}; }

    private static String pad(String s, int width) { return s + " ".repeat(Math.max(0, width - s.length())); }

    private static double mean(long total, long count) { return count == 0 ? 0 : (double) total / count; }

    private static String fixed(double v) { return String.format(Locale.ROOT, "%.2f", v); }

    /** A rate as every report writes it ({@code 1,000/s}, {@code 97.3/s}); its unit keeps it apart in the list. */
    private static String rate(double perSecond) { return dev.blocklab.load.Rates.number(perSecond) + "/s"; }

    private static String latencies(LatencyMillis l) {
        double[] ms = {l.min(), l.mean(), l.p50(), l.p90(), l.p95(), l.p99(), l.p999(), l.p9999(), l.max()};
        StringBuilder sb = new StringBuilder();
        for (double m : ms) {
            if (!sb.isEmpty()) sb.append(", ");
            sb.append(GoDurations.format(Math.round(m * 1e6)));
        }
        return sb.toString();
    }
}
