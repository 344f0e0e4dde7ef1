package dev.blocklab.experiment;

import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The standard tables over runs, so every experiment lays runs out the same way. */
public final class RunTables {
    private RunTables() {}

    /** Measured beside predicted beside the article (scaled to the run's time scale), one row per run. */
    public static Table seedRows(String title, List<SeedRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (SeedRow row : rows) {
            RunResult r = row.run();
            cells.add(List.of(row.label(), r.model(), String.valueOf(r.requests()), pct(r.successRatio()),
                    ms(r.wallMillis()), range(r), ms(r.predictedMillis()), ms(r.idealMillis()),
                    row.articleMillis() == null ? "-" : ms(row.articleMillis() / r.timeScaleDivisor()),
                    ms(r.latencyMillis().p50()), ms(r.latencyMillis().p99()),
                    String.valueOf(r.peakPlatformThreads()), String.valueOf(r.platformThreadsStarted()),
                    ms(r.cpuMillis()), r.contextSwitches().voluntary() + "/" + r.contextSwitches().involuntary(),
                    mb(r.allocatedBytes()), mb(r.peakRssBytes())));
        }
        return new Table(title, List.of("row", "model", "requests", "ok %", "wall ms", "range ms", "predicted ms",
                "ideal ms", "article ms", "p50 ms", "p99 ms", "peak threads", "threads started", "cpu ms",
                "ctx sw vol/invol", "alloc MB", "peak RSS MB"), cells);
    }

    /** One row per run, for {@code blocklab run}. */
    public static Table runs(String title, List<RunResult> runs) {
        List<List<String>> cells = new ArrayList<>();
        for (RunResult r : runs) {
            cells.add(List.of(r.model(), String.valueOf(r.requests()), pct(r.successRatio()), ms(r.wallMillis()),
                    ms(r.predictedMillis()), ms(r.idealMillis()), ms(r.latencyMillis().p50()), ms(r.latencyMillis().p90()),
                    ms(r.latencyMillis().p99()), ms(r.latencyMillis().max()), num(r.throughputPerSecond()),
                    String.valueOf(r.peakPlatformThreads()), String.valueOf(r.peakOsThreads()), ms(r.cpuMillis()),
                    r.contextSwitches().voluntary() + "/" + r.contextSwitches().involuntary(),
                    mb(r.allocatedBytes()), mb(r.peakRssBytes())));
        }
        return new Table(title, List.of("model", "requests", "ok %", "wall ms", "predicted ms", "ideal ms",
                "p50 ms", "p90 ms", "p99 ms", "max ms", "req/s", "peak threads", "peak OS threads", "cpu ms",
                "ctx sw vol/invol", "alloc MB", "peak RSS MB"), cells);
    }

    /** Why the measurement and the prediction differ, when they differ by more than 20 %. */
    public static String deviation(RunResult r) {
        double ratio = r.wallMillis() / Math.max(1e-9, r.predictedMillis());
        if (ratio <= 1.2 && ratio >= 0.8) return "within 20 % of the prediction (" + num(ratio) + " x)";
        return num(ratio) + " x the prediction: " + r.predictionBasis();
    }

    static String ms(double millis) {
        if (millis >= 100) return String.format(Locale.ROOT, "%.0f", millis);
        if (millis >= 10) return String.format(Locale.ROOT, "%.1f", millis);
        return String.format(Locale.ROOT, "%.2f", millis);
    }

    static String range(RunResult r) {
        return r.repeats() <= 1 ? "-" : ms(r.wallMillisMin()) + ".." + ms(r.wallMillisMax());
    }

    static String pct(double ratio) { return String.format(Locale.ROOT, "%.2f", ratio * 100); }

    static String num(double v) { return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v); }

    static String mb(long bytes) { return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.1f", bytes / 1048576.0); }
}
