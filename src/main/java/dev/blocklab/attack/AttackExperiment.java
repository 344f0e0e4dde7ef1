package dev.blocklab.attack;

import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.InstrumentRows;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.AttackInterval;
import dev.blocklab.result.GoDurations;
import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.Series;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Durations;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * An attack as an {@link ExperimentResult} (experiment {@value #NAME}), so the HTML report, the saved results
 * file and {@code blocklab report} treat it like any experiment: the vegeta-like summary table, the per-interval
 * table, notes on how latency was measured and whether the attacker kept its schedule, and four charts (latency
 * percentiles over time, sent against scheduled rate, the latency percentile spectrum, status codes). The rows
 * are the {@link AttackInterval}s.
 */
public final class AttackExperiment {
    /** The experiment name of an attack's result. */
    public static final String NAME = "attack";
    private static final Axis ELAPSED = new Axis("time since the attack started", "s");

    private AttackExperiment() {}

    /** The result of attack {@code r} with its {@code timeline} (intervals of {@code intervalNanos}). */
    public static ExperimentResult of(AttackResult r, List<AttackInterval> timeline, long intervalNanos, Environment environment) {
        String every = Durations.format(intervalNanos);
        List<String> notes = new ArrayList<>();
        notes.add("Latency counts from each request's intended send time (free of coordinated omission): a request the "
                + "attacker or the target held back counts its wait; service time counts from the actual send.");
        notes.add(String.format(Locale.ROOT, "Late sends: %d of %d left more than %s behind schedule (worst %s); %d scheduled requests were never sent.",
                r.lateSends(), r.requests(), GoDurations.format(r.lateThresholdNanos()), GoDurations.format(r.maxLateNanos()), r.unsent()));
        notes.add(r.fellBehind()   // the live report's verdict, word for word
                ? r.health().verdictLine() + (r.unsent() > 0 ? " The target saw a lower rate than asked." : "")
                : !r.health().judged() ? r.health().verdictLine()
                : String.format(Locale.ROOT, "The attacker kept its schedule: its own delay stayed within its allowance of %s "
                        + "(%.0f %% of the latency p99, at least %.0f ms), so late sends are judged against the latency measured, not a fixed 1 ms.",
                        GoDurations.format(Math.round(r.health().budgetMillis() * 1e6)),
                        InstrumentHealth.BUDGET_SHARE_OF_P99 * 100, InstrumentHealth.BUDGET_FLOOR_MILLIS));
        if (r.stopped()) notes.add("The attack was stopped before its duration; the figures cover what was sent.");
        if (r.cutOff() > 0) notes.add(r.cutOff() + (r.cutOff() == 1 ? " request was" : " requests were")
                + " cut off at the end without a response: each counts as status 0, and its latency up to the report, a lower bound.");
        notes.add("Timeline intervals are " + every + " long; requests count in the interval they were sent, scheduled or "
                + "completed in; latency percentiles per interval from an HdrHistogram of 2 significant digits (each within 1 % of the "
                + "latency recorded, so an interval's max may read up to 1 % above the whole attack's, kept at 3 digits).");
        // an instrument-limited attack says so in the report's first line, as the live report does, not only in a note
        String scale = r.health().instrumentLimited() ? "real time; INSTRUMENT-LIMITED: the attacker set the latency and rate figures, see the notes" : "real time";
        return new ExperimentResult(NAME, r.description(), scale, environment, timeline,
                List.of(summary(r), intervals(timeline)), notes,
                List.of(latencyOverTime(timeline, every), rateOverTime(timeline, every),
                        spectrum(r.latencyHistogramNanos()), statusCodes(r)));
    }

    /** vegeta's layout: one row per metric, its legend, its values with units. */
    static Table summary(AttackResult r) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("Requests", "[total, rate, throughput]",
                r.requests() + ", " + dev.blocklab.load.Rates.number(r.ratePerSecond()) + "/s, "
                        + dev.blocklab.load.Rates.number(r.throughputPerSecond()) + "/s"));
        rows.add(List.of("Duration", "[total, attack, wait]", GoDurations.format(r.totalNanos()) + ", "
                + GoDurations.format(r.attackNanos()) + ", " + GoDurations.format(r.waitNanos())));
        rows.add(List.of("Latencies", "[min, mean, 50, 90, 95, 99, 99.9, 99.99, max]", latencies(r.latencyMillis())));
        rows.add(List.of("Service time", "[min, mean, 50, 90, 95, 99, 99.9, 99.99, max]", latencies(r.serviceTimeMillis())));
        rows.add(List.of("Bytes In", "[total, mean]", r.bytesIn() + " B, " + fixed(mean(r.bytesIn(), r.requests())) + " B"));
        rows.add(List.of("Bytes Out", "[total, mean]", r.bytesOut() + " B, " + fixed(mean(r.bytesOut(), r.requests())) + " B"));
        rows.add(List.of("Success", "[ratio]", fixed(r.successRatio() * 100) + " %"));
        StringBuilder codes = new StringBuilder();
        for (Map.Entry<Integer, Long> e : r.statusCodes().entrySet())
            codes.append(codes.isEmpty() ? "" : "  ").append(e.getKey()).append(':').append(e.getValue());
        rows.add(List.of("Status Codes", "[code:count]", codes.toString()));
        rows.addAll(InstrumentRows.of(r));
        StringBuilder errors = new StringBuilder();
        for (Map.Entry<String, Long> e : r.errors().entrySet())
            errors.append(errors.isEmpty() ? "" : "; ").append(e.getKey()).append(e.getValue() > 1 ? " (x" + e.getValue() + ")" : "");
        rows.add(List.of("Error Set", "[error (count)]", errors.isEmpty() ? "none" : errors.toString()));
        return new Table("Attack: " + r.description(), List.of("metric", "legend", "values"), rows);
    }

    static Table intervals(List<AttackInterval> timeline) {
        List<List<String>> rows = new ArrayList<>();
        for (AttackInterval i : timeline)
            rows.add(List.of(seconds(i.startNanos()), seconds(i.endNanos()), i.scheduled() == null ? "-" : Long.toString(i.scheduled()),
                    Long.toString(i.sent()), Long.toString(i.completed()), Long.toString(i.errors()),
                    ms(i.p50Millis()), ms(i.p90Millis()), ms(i.p99Millis()), ms(i.maxMillis())));
        return new Table("Per interval", List.of("from (s)", "to (s)", "scheduled", "sent", "completed", "errors",
                "p50 (ms)", "p90 (ms)", "p99 (ms)", "max (ms)"), rows);
    }

    static Chart latencyOverTime(List<AttackInterval> timeline, String every) {
        List<Series> series = List.of(latencySeries("p50", timeline, AttackInterval::p50Millis),
                latencySeries("p90", timeline, AttackInterval::p90Millis), latencySeries("p99", timeline, AttackInterval::p99Millis),
                latencySeries("max", timeline, AttackInterval::maxMillis));
        return new Chart.LineChart("Attack: latency percentiles over time", ELAPSED, new Axis("latency", "ms"), series, false, false,
                "Latency from each request's intended send time to its complete response, HdrHistogram per " + every
                        + " interval of completion (2 significant digits); each point sits at its interval's end; intervals without completions are left out.");
    }

    static Chart rateOverTime(List<AttackInterval> timeline, String every) {
        List<Series> series = new ArrayList<>();
        if (!timeline.isEmpty() && timeline.getFirst().scheduled() != null)
            series.add(rateSeries("scheduled", timeline, i -> i.scheduled()));
        series.add(rateSeries("sent", timeline, AttackInterval::sent));
        series.add(rateSeries("completed", timeline, AttackInterval::completed));
        return new Chart.LineChart("Attack: sent versus scheduled rate", ELAPSED, new Axis("rate", "req/s"), series, false, false,
                "Requests per second in each " + every + " interval: scheduled = due by the pacer, sent = left the attacker "
                        + "(counted when answered), completed = responses and errors that arrived; lines that coincide hide one another; each point sits at its interval's end.");
    }

    static Chart spectrum(Histogram latencyNanos) {
        List<Series> series = latencyNanos.getTotalCount() == 0 ? List.of() : List.of(new Series("latency", Series.spectrum(latencyNanos)));
        String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"};
        List<Axis.Tick> ticks = new ArrayList<>();
        for (int d = 0; d < labels.length && Math.pow(10, d) <= Math.max(10, latencyNanos.getTotalCount()); d++)
            ticks.add(new Axis.Tick(Math.pow(10, d), labels[d]));
        return new Chart.LineChart("Attack: latency percentile spectrum", new Axis("percentile, spaced as 1/(1-p)", "", ticks),
                new Axis("latency", "ms"), series, true, true,
                "Latency from each request's intended send time, HdrHistogram of nanoseconds (3 significant digits) over all "
                        + latencyNanos.getTotalCount() + " responses and errors; the line stops at the highest percentile the count resolves.");
    }

    static Chart statusCodes(AttackResult r) {
        List<String> categories = new ArrayList<>();
        List<Double> counts = new ArrayList<>();
        for (Map.Entry<Integer, Long> e : r.statusCodes().entrySet()) {
            categories.add(e.getKey() == 0 ? "0 (no response)" : Integer.toString(e.getKey()));
            counts.add((double) e.getValue());
        }
        return new Chart.BarChart("Attack: status codes", new Axis("HTTP status", ""), categories, new Axis("responses", "count"),
                List.of(new Bars("responses", counts)), false,
                "Responses per HTTP status over the whole attack, " + r.requests() + " requests; 0 = no response (connection error or timeout).");
    }

    private static Series latencySeries(String name, List<AttackInterval> timeline, Function<AttackInterval, Double> millis) {
        List<Series.Point> points = new ArrayList<>();
        for (AttackInterval i : timeline) {
            Double v = millis.apply(i);
            if (v != null) points.add(new Series.Point(i.endNanos() / 1e9, v));
        }
        return new Series(name, points);
    }

    private static Series rateSeries(String name, List<AttackInterval> timeline, Function<AttackInterval, Long> count) {
        List<Series.Point> points = new ArrayList<>();
        for (AttackInterval i : timeline) points.add(new Series.Point(i.endNanos() / 1e9, count.apply(i) / i.seconds()));
        return new Series(name, points);
    }

    private static String latencies(LatencyMillis l) {
        double[] ms = {l.min(), l.mean(), l.p50(), l.p90(), l.p95(), l.p99(), l.p999(), l.p9999(), l.max()};
        StringBuilder sb = new StringBuilder();
        for (double m : ms) sb.append(sb.isEmpty() ? "" : ", ").append(GoDurations.format(Math.round(m * 1e6)));
        return sb.toString();
    }

    private static double mean(long total, long count) { return count == 0 ? 0 : (double) total / count; }

    private static String fixed(double v) { return String.format(Locale.ROOT, "%.2f", v); }

    private static String seconds(long nanos) { return String.format(Locale.ROOT, "%.3f", nanos / 1e9); }

    private static String ms(Double millis) { return millis == null ? "-" : String.format(Locale.ROOT, "%.3f", millis); }
}
