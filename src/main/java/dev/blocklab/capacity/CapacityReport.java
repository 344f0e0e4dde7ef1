package dev.blocklab.capacity;

import dev.blocklab.report.RunCharts;
import dev.blocklab.result.Chart;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Series;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The capacity search as an {@link ExperimentResult}, so every report format renders it: the ranked capacity
 * table beside the predictions, the knee curve of every entry (a table, and p50/p99 against offered rate as
 * charts), the recommendation in sentences, and the command that reproduces it.
 */
public final class CapacityReport {
    private CapacityReport() {}

    /**
     * A row of the JSON output: one entry's answer. {@code predictedCeilingPerSecond} is null where the entry's
     * formula names no limit; latency and cost figures are NaN-free: 0 where no rate was sustained.
     */
    public record Row(int rank, String entry, double sustainablePerSecond, boolean atLeast, double brokenPerSecond,
                      Double predictedCeilingPerSecond, String predictionBasis, double p50Millis, double p99Millis,
                      double p99MinMillis, double p99MaxMillis, double cpuMicrosPerRequest, double allocatedBytesPerRequest,
                      int peakThreads, long peakRssBytes, String why, List<Point> knee) {}

    /** How the search measured: the step, the repeats, the rates, where latency counts from, where CPU comes from. */
    public static String searchNote(Capacity.Settings settings) {
        return String.format(Locale.ROOT, "Search: open runs of %s at each rate, %d per rate (judged on the run of median p99), the rate x %s from %s/s "
                        + "until an objective breaks (at most %s/s), then %d bisection%s; one discarded warm-up run per entry. Latency from each "
                        + "request's intended send time; CPU is the whole process's (getrusage), allocation JVM-wide, both per request completed.",
                dev.blocklab.workload.Durations.format(settings.stepNanos()), settings.repeats(), num(settings.rates().factor()),
                dev.blocklab.load.Rates.number(settings.rates().startPerSecond()), dev.blocklab.load.Rates.number(settings.rates().maxPerSecond()), settings.rates().refinements(),
                settings.rates().refinements() == 1 ? "" : "s");
    }

    public static ExperimentResult of(String workload, Capacity.Settings settings, List<Capacity.EntryResult> results,
                                      String command, Environment environment) {
        return of(workload, settings, results, Recommendation.of(results), command, environment, "");
    }

    /**
     * As {@link #of(String, Capacity.Settings, List, String, Environment)}, {@code rec} being {@code results} ranked
     * ({@link Recommendation#of}), the calls going to {@code servers} (empty: simulated).
     */
    public static ExperimentResult of(String workload, Capacity.Settings settings, List<Capacity.EntryResult> results,
                                      Recommendation rec, String command, Environment environment, String servers) {
        List<Row> rows = new ArrayList<>();
        List<List<String>> cells = new ArrayList<>();
        for (Recommendation.Ranked r : rec.ranked()) {
            CapacitySearch.Result s = r.result().search();
            Measurement m = s.atSustainable().map(Point::median).orElse(null);
            Point p = s.atSustainable().orElse(null);
            boolean atLeast = s.isLowerBound();
            rows.add(new Row(r.rank(), r.result().entry(), s.sustainablePerSecond(), atLeast, s.brokenPerSecond(),
                    finite(r.result().predicted().ceilingPerSecond()), r.result().predicted().basis(),
                    m == null ? 0 : m.p50Millis(), m == null ? 0 : m.p99Millis(),
                    p == null ? 0 : p.p99MinMillis(), p == null ? 0 : p.p99MaxMillis(),
                    m == null ? 0 : m.cpuMicrosPerRequest(), m == null ? 0 : m.allocatedBytesPerRequest(),
                    m == null ? 0 : m.peakThreads(), m == null ? -1 : m.peakRssBytes(), r.result().why(), s.points()));
            cells.add(List.of(String.valueOf(r.rank()), r.result().entry(),
                    (atLeast ? ">= " : "") + dev.blocklab.load.Rates.number(s.sustainablePerSecond()),
                    Double.isInfinite(r.result().predicted().ceilingPerSecond()) ? "no limit" : dev.blocklab.load.Rates.number(r.result().predicted().ceilingPerSecond()),
                    s.brokenPerSecond() == 0 ? "-" : dev.blocklab.load.Rates.number(s.brokenPerSecond()),
                    m == null ? "-" : ms(m.p50Millis()), m == null ? "-" : ms(m.p99Millis()),
                    p == null ? "-" : ms(p.p99MinMillis()) + "-" + ms(p.p99MaxMillis()),
                    m == null ? "-" : num(m.cpuMicrosPerRequest()), m == null ? "-" : num(m.allocatedBytesPerRequest() / 1024),
                    m == null ? "-" : String.valueOf(m.peakThreads()),
                    m == null || m.peakRssBytes() < 0 ? "-" : num(m.peakRssBytes() / 1048576.0),
                    Double.isNaN(r.cpuMicrosAtCommonRate()) ? "-" : num(r.cpuMicrosAtCommonRate())
                            + (r.cpuRatePerSecond() == rec.commonPerSecond() ? "" : " (at " + dev.blocklab.load.Rates.number(r.cpuRatePerSecond()) + "/s)"),
                    r.result().why()));
        }
        String slo = String.join(", ", settings.slos().stream().map(Slo::text).toList());
        Table capacity = new Table("Highest open rate meeting " + slo + " (" + workload + "), best first",
                List.of("rank", "entry", "sustained req/s", "predicted req/s", "broke at req/s", "p50 ms", "p99 ms", "p99 range ms",
                        "cpu us/req", "alloc KiB/req", "threads", "rss MiB",
                        rec.commonPerSecond() == 0 ? "cpu us/req (no common rate)" : "cpu us/req at " + dev.blocklab.load.Rates.number(rec.commonPerSecond()) + "/s",
                        "why it stops"), cells);
        List<List<String>> knee = new ArrayList<>();
        for (Capacity.EntryResult r : results) {
            for (Point p : r.search().points()) {
                Measurement m = p.median();
                CapacitySearch search = settings.search();
                var verdict = search.judge(p);
                // what the verdict judged: completions within the step where measured (in process), else over the wall time
                double done = m.doneInStepPerSecond() != null ? m.doneInStepPerSecond() : m.throughputPerSecond();
                knee.add(List.of(r.entry(), dev.blocklab.load.Rates.number(p.ratePerSecond()), num(done), pct(m.successRatio()),
                        ms(m.p50Millis()), ms(m.p99Millis()), ms(p.p99MinMillis()) + "-" + ms(p.p99MaxMillis()),
                        String.valueOf(p.repeats().size()), verdict.sustained() ? "met" + leniency(settings.slos(), m) : "broke: " + verdict.reason()));
            }
        }
        Table curve = new Table("Knee curve: every rate measured (median of the repeats, p99 range over them)",
                List.of("entry", "offered req/s", "done req/s", "ok %", "p50 ms", "p99 ms", "p99 range ms", "runs", "verdict"), knee);
        List<String> notes = new ArrayList<>(rec.sentences());
        notes.addAll(poolNotes(results));
        notes.add(searchNote(settings));
        notes.add("Predicted: the ceiling each entry's own formula gives (a pool of N threads holding a request t: N / t; no limit "
                + "where no thread is held) and one request's p99 from the workload's drawn latencies; in process the driver paces "
                + "itself, over HTTP blocklab's attacker checks its own health at every rate (an instrument-limited rate is a lower bound, never the entry's)."
                + (servers.contains("db pool") || servers.contains("redis pool") ? " Steps on a real PostgreSQL or Redis: every model is also bound by the pools "
                        + "its requests wait on (Little's law: connections over the time a request holds one), whichever ceiling is lower: the db pool; "
                        + "for Redis, the Jedis pool under a blocking model, Lettuce's one connection under a non-blocking one (held only by commands that wait on the server, such as BLPOP)." : ""));
        notes.add("Knee curve's 'done req/s': in process, the requests completed within the step per second of the step after its "
                + "fastest request's latency (requests still in flight at the step's end, as in any steady run, are allowed for), the figure "
                + "a 'backlog grew' verdict quotes; over HTTP, requests completed per second of the whole run.");
        notes.add("Reproduce: " + command);
        List<Chart> charts = List.of(chart(results, "p99"), chart(results, "p50"));
        return new ExperimentResult("capacity", "capacity of " + workload + " at " + slo, servers.isEmpty() ? "real time" : "real time; " + servers, environment, rows,
                List.of(capacity, curve), notes, charts);
    }

    /**
     * Each entry's connection pools (a real server's) at the rate it sustained and at the rate that broke, one line
     * per pool from the median run there ({@link Measurement#pools()}, in the knee's JSON too):
     * {@code virtual at 80/s (broke): jdbc+hikari pool 2: 160 calls, 12 failed waits, ...}.
     */
    static List<String> poolNotes(List<Capacity.EntryResult> results) {
        List<String> notes = new ArrayList<>();
        for (Capacity.EntryResult r : results) {
            CapacitySearch.Result s = r.search();
            s.atSustainable().ifPresent(p -> p.median().pools().forEach(pool ->
                    notes.add(r.entry() + " at " + dev.blocklab.load.Rates.number(p.ratePerSecond()) + "/s (sustained): " + pool.line())));
            s.atBroken().ifPresent(p -> p.median().pools().forEach(pool ->
                    notes.add(r.entry() + " at " + dev.blocklab.load.Rates.number(p.ratePerSecond()) + "/s (broke): " + pool.line())));
        }
        return notes;
    }

    private static Chart chart(List<Capacity.EntryResult> results, String percentile) {
        List<Series> series = results.stream().map(r -> new Series(r.entry(), r.search().points().stream()
                .map(p -> new Series.Point(p.ratePerSecond(), p.median().latencyMillis(percentile))).toList())).toList();
        return RunCharts.latencyAgainstRate(percentile, series,
                "median of the repeats at each rate; latency from each request's intended send time; open arrivals");
    }

    /** A finite ceiling, or null for "no limit". */
    private static Double finite(double v) { return Double.isFinite(v) ? v : null; }

    static String ms(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.1f", v); }

    static String num(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v); }

    static String pct(double share) { return String.format(Locale.ROOT, "%.1f", share * 100); }

    /** {@code " (success 90.0 % of 40 requests, below 95 % but too few to show it ...)"} where a rate met an objective only so, else empty. */
    static String leniency(List<Slo> slos, Measurement m) {
        List<String> notes = Slo.metOnlyByTheInterval(slos, m);
        return notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
    }
}
