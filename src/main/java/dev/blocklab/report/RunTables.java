package dev.blocklab.report;

import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The standard tables over runs, so every experiment lays runs out the same way. Every run row shows the
 * prediction beside the measurement with the ratio and, past {@value Deviation#TOLERANCE_PERCENT} %, the likely
 * cause ({@link Deviation}); Little's law for the requests in flight; and the cost per request.
 */
public final class RunTables {
    private RunTables() {}

    /** Measured beside predicted beside the article (scaled to the run's time scale), one row per run. */
    public static Table seedRows(String title, List<SeedRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (SeedRow row : rows) {
            RunResult r = row.run();
            List<String> line = new ArrayList<>(List.of(row.label(), r.model(), String.valueOf(r.counts().requests()), pct(r.successRatio()),
                    ms(r.timing().wallMillis()), range(r), ms(r.prediction().predictedMillis()), Deviation.of(r).flag(), ms(r.prediction().idealMillis()),
                    row.articleMillis() == null ? "-" : ms(row.articleMillis() / r.timeScaleDivisor()),
                    ms(r.timing().latencyMillis().p50()), ms(r.timing().latencyMillis().p99()), num(Deviation.littlesLaw(r)),
                    String.valueOf(r.resources().peakPlatformThreads()), String.valueOf(r.resources().platformThreadsStarted()),
                    ms(r.resources().cpuMillis())));
            cells.add(withResources(line, r));
        }
        return new Table(title, withResourceColumns("row", "model", "requests", "ok %", "wall ms", "range ms",
                "predicted ms", "measured/predicted", "ideal ms", "article ms", "p50 ms", "p99 ms", "in flight (Little)",
                "peak threads", "threads started", "cpu ms"), cells);
    }

    /** One row per run, for {@code blocklab run}. */
    public static Table runs(String title, List<RunResult> runs) {
        List<List<String>> cells = new ArrayList<>();
        for (RunResult r : runs) {
            // a batch predicts its wall time; open and closed arrivals predict one request's mean latency: say which
            String predicted = ms(r.prediction().predictedMillis()) + (r.predictsWallTime() ? "" : " (mean latency)");
            List<String> line = new ArrayList<>(List.of(r.model(), String.valueOf(r.counts().requests()), pct(r.successRatio()), ms(r.timing().wallMillis()),
                    predicted, Deviation.of(r).flag(), ms(r.prediction().idealMillis()), ms(r.timing().latencyMillis().p50()),
                    ms(r.timing().latencyMillis().p90()), ms(r.timing().latencyMillis().p99()), ms(r.timing().latencyMillis().max()),
                    num(r.timing().throughputPerSecond()), num(Deviation.littlesLaw(r)),
                    String.valueOf(r.resources().peakPlatformThreads()), String.valueOf(r.resources().peakOsThreads()), ms(r.resources().cpuMillis())));
            cells.add(withResources(line, r));
        }
        return new Table(title, withResourceColumns("model", "requests", "ok %", "wall ms", "predicted ms",
                "measured/predicted", "ideal ms", "p50 ms", "p90 ms", "p99 ms", "max ms", "req/s", "in flight (Little)",
                "peak threads", "peak OS threads", "cpu ms"), cells);
    }

    /**
     * Prediction beside measurement, one row per run: the formula, both figures, their ratio, the likely cause
     * with its figures when they differ by more than {@value Deviation#TOLERANCE_PERCENT} %, and Little's law
     * (throughput x mean latency = requests in flight, those queued for a thread included).
     */
    public static Table predictions(String title, List<LabelledRun> runs) {
        List<List<String>> cells = new ArrayList<>();
        for (LabelledRun lr : runs) {
            RunResult r = lr.run();
            Deviation d = Deviation.of(r);
            cells.add(List.of(lr.label(), r.prediction().predictionBasis() == null ? "-" : r.prediction().predictionBasis(), ms(r.prediction().predictedMillis()),
                    ms(r.measuredMillis()), num(d.ratio()), d.flagged() || Double.isNaN(d.ratio()) ? d.cause() : "ok", d.flagged() ? d.detail() : "-",
                    Deviation.littlesLawText(r).substring("Little's law: ".length())));
        }
        return new Table(title, List.of("row", "prediction", "predicted ms", "measured ms", "measured/predicted",
                "flag (> " + Deviation.TOLERANCE_PERCENT + " %)", "likely cause",
                "Little's law: requests in flight, queued ones included"), cells);
    }

    /** What one request cost, one row per run: the whole process' figures divided by the requests completed. */
    public static Table costPerRequest(String title, List<LabelledRun> runs) {
        List<List<String>> cells = new ArrayList<>();
        for (LabelledRun lr : runs) {
            RunResult r = lr.run();
            List<String> line = new ArrayList<>(List.of(lr.label(), String.valueOf(r.counts().requests())));
            line.addAll(perRequest(r));
            line.add(String.valueOf(r.resources().peakPlatformThreads()));
            line.add(mib(r.resources().peakRssBytes()));
            cells.add(line);
        }
        List<String> columns = new ArrayList<>(List.of("row", "requests"));
        columns.addAll(PER_REQUEST_COLUMNS);
        columns.add("peak threads");
        columns.add("peak RSS MiB");
        return new Table(title, columns, cells);
    }

    /**
     * How each run failed ({@link dev.blocklab.result.FailureScore}), one row per run that was scored and saw a
     * failure or left work running; empty when none did, so reports show it only where failures occurred.
     */
    public static java.util.Optional<Table> failures(String title, List<LabelledRun> runs) {
        List<List<String>> cells = new ArrayList<>();
        for (LabelledRun lr : runs) {
            RunResult r = lr.run();
            var f = r.failureScore();
            if (!f.anyFailure()) continue;
            cells.add(List.of(lr.label(), String.valueOf(r.counts().requests()), String.valueOf(r.counts().failures()),
                    String.valueOf(r.counts().timeouts()), String.valueOf(r.counts().cancelled()), ms(f.meanTimeToFailMillis()),
                    ms(f.maxTimeToFailMillis()), f.cancellationsHonoured() + "/" + f.cancellationsRequested(),
                    String.valueOf(f.orphanedCalls()), ms(f.orphanBackendMillis()), String.valueOf(f.callsLeftRunning()),
                    String.valueOf(r.resources().leftoverThreads())));
        }
        if (cells.isEmpty()) return java.util.Optional.empty();
        return java.util.Optional.of(new Table(title, List.of("row", "requests", "failed", "timed out", "cancelled",
                "time to fail mean ms", "time to fail max ms", "cancels honoured/requested", "orphan calls",
                "orphan backend ms", "calls left running", "threads left"), cells));
    }

    /** {@code line} followed by the run's context switches, allocation, peak RSS and its figures per request. */
    private static List<String> withResources(List<String> line, RunResult r) {
        line.add(r.resources().contextSwitches().voluntary() + "/" + r.resources().contextSwitches().involuntary());
        line.add(mib(r.resources().allocatedBytes()));
        line.add(mib(r.resources().peakRssBytes()));
        line.addAll(perRequest(r));
        return line;
    }

    /** The headings of {@link #withResources}'s line. */
    private static List<String> withResourceColumns(String... first) {
        List<String> columns = new ArrayList<>(List.of(first));
        columns.addAll(List.of("ctx sw vol/invol", "alloc MiB", "peak RSS MiB"));
        columns.addAll(PER_REQUEST_COLUMNS);
        return columns;
    }

    private static final List<String> PER_REQUEST_COLUMNS = List.of("cpu us/req", "alloc KiB/req", "ctx sw/req", "threads/req", "calls/req");

    /** Each figure over the completed requests; calls/req counts the backend's calls, retries and hedges included. */
    private static List<String> perRequest(RunResult r) {
        if (r.counts().requests() == 0) return List.of("-", "-", "-", "-", "-");
        double n = r.counts().requests();
        return List.of(num(r.resources().cpuMillis() * 1000 / n),
                r.resources().allocatedBytes() < 0 ? "-" : num(r.resources().allocatedBytes() / 1024.0 / n),
                r.resources().contextSwitches().total() < 0 ? "-" : num(r.resources().contextSwitches().total() / n),
                num(r.resources().platformThreadsStarted() / n), num(r.backendCallsPerRequest()));
    }

    /**
     * The notes for a run's failures, labelled {@code label}: one per cause with its count, then the first failure
     * with the top of its stack ({@code Type: message at frame < frame}); none for a run without failures.
     */
    public static List<String> failureNotes(String label, RunResult r) {
        List<String> notes = new ArrayList<>();
        r.counts().failureCauses().forEach((cause, count) -> notes.add(label + ": " + count + " x " + cause));
        if (r.firstFailure() != null) notes.add(label + ": first failure " + r.firstFailure().oneLine());
        return notes;
    }

    /** Why the measurement and the prediction differ, when they differ by more than 20 %. */
    public static String deviation(RunResult r) {
        Deviation d = Deviation.of(r);
        if (!d.flagged()) return d.detail();
        return num(d.ratio()) + " x the prediction (" + r.prediction().predictionBasis() + "), likely " + d.cause() + ": " + d.detail();
    }

    public static String ms(double millis) {
        if (millis >= 100) return String.format(Locale.ROOT, "%.0f", millis);
        if (millis >= 10) return String.format(Locale.ROOT, "%.1f", millis);
        return String.format(Locale.ROOT, "%.2f", millis);
    }

    public static String range(RunResult r) {
        return r.repeats().count() <= 1 ? "-" : ms(r.repeats().wallMillisMin()) + ".." + ms(r.repeats().wallMillisMax());
    }

    public static String pct(double ratio) { return String.format(Locale.ROOT, "%.2f", ratio * 100); }

    public static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v);
    }

    /** Bytes in MiB (2^20 bytes), one decimal; "-" where unknown. */
    public static String mib(long bytes) { return bytes < 0 ? "-" : String.format(Locale.ROOT, "%.1f", mibValue(bytes)); }

    /** Bytes in MiB (2^20 bytes). */
    public static double mibValue(long bytes) { return bytes / 1048576.0; }
}
