package dev.blocklab.report;

import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ArrivalKind;
import dev.blocklab.result.ContextSwitches;
import dev.blocklab.result.Counts;
import dev.blocklab.result.FirstFailure;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.Repeats;
import dev.blocklab.result.Resources;
import dev.blocklab.result.RunPrediction;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Timing;
import dev.blocklab.result.Series;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** Fixed results for golden-file, round-trip and browser tests: no clock, no machine, no randomness. */
public final class SyntheticResults {
    public static final String TIMESTAMP = "2026-01-01T00:00:00Z";
    public static final Environment MACHINE = new Environment("25.0.1+8", "Test Vendor", "Linux 6.1", "amd64", 4,
            "Test CPU @ 3.0GHz", 2L << 30, List.of("--enable-preview"));

    private SyntheticResults() {}

    /**
     * One run: {@code requests} latencies spread evenly between {@code minMillis} and {@code maxMillis}, with
     * the other figures derived from the arguments.
     */
    public static RunResult run(String model, long requests, long successes, double wallMillis, double predictedMillis,
                                double minMillis, double maxMillis, long threadsStarted, int peakThreads) {
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        for (long i = 0; i < requests; i++)
            h.recordValue((long) ((minMillis + (maxMillis - minMillis) * i / Math.max(1, requests - 1)) * 1e6));
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        String encoded = Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
        long failures = requests - successes;
        return new RunResult(model, "synthetic", "batch " + requests, ArrivalKind.BATCH, 10, successes > 0 ? 13 : null,
                new Counts(requests, successes, failures, 0, 0,
                        failures > 0 ? Map.of("java.lang.IllegalArgumentException: This won't work!", failures) : Map.of()),
                new Timing(wallMillis, requests / (wallMillis / 1000), LatencyMillis.of(h), encoded),
                new Repeats(3, wallMillis * 0.95, wallMillis * 1.1), new RunPrediction(100, predictedMillis, "formula of " + model),
                new Resources(peakThreads, peakThreads + 12, threadsStarted, 0, wallMillis * 0.2,
                        new ContextSwitches(requests * 2, requests / 10), requests * 4096, 200L << 20),
                failures > 0 ? new FirstFailure("java.lang.IllegalArgumentException", "This won't work!",
                        List.of("dev.blocklab.synthetic.Seed.call(Seed.java:42)", "dev.blocklab.synthetic.Seed.run(Seed.java:7)")) : null);
    }

    public static List<RunResult> runs() {
        return List.of(
                run("fixed:8", 100, 100, 1300, 1300, 100, 1300, 8, 20),
                run("cached", 10_000, 10_000, 700, 100, 100, 650, 10_000, 4_000),
                run("virtual", 10_000, 10_000, 121, 100, 100, 120, 0, 14),
                run("seed-<blocking & \"quoted\">", 10, 4, 50, 100, 10, 40, 2, 12));
    }

    /** An experiment with the standard run charts, tables and notes. */
    public static ExperimentResult standard() {
        List<RunResult> runs = runs();
        List<LabelledRun> labelled = LabelledRun.byModel(runs);
        return new ExperimentResult("synthetic-runs", "four synthetic runs <with markup & quotes>", "quick, delays / 10", MACHINE,
                runs, List.of(RunTables.runs("Synthetic runs", runs), RunTables.predictions("Prediction beside measurement", labelled),
                RunTables.costPerRequest("Cost per request", labelled)),
                List.of("Synthetic figures for tests; no machine measured them.", "A note with <markup> & \"quotes\"."),
                RunCharts.standard("synthetic", labelled));
    }

    /** An experiment with hand-made charts: a log-log sweep, a linear line chart, a bar chart with gaps. */
    public static ExperimentResult handMade() {
        List<Series> sweep = new ArrayList<>();
        int[] calls = {1, 10, 100, 1_000, 10_000};
        for (int threads : new int[]{1, 8, 10_000}) {
            List<Series.Point> points = new ArrayList<>();
            for (int c : calls) points.add(new Series.Point(c, Math.ceil((double) c / threads) * 100));
            sweep.add(new Series(threads == 10_000 ? "unbounded" : "fixed:" + threads, points));
        }
        Chart loglog = new Chart.LineChart("Total time against calls", new Axis("calls", "count"), new Axis("wall time", "ms"),
                sweep, true, true, "Predicted: ceil(calls / threads) x 100 ms.");
        Chart linear = new Chart.LineChart("Cost per switch against threads", new Axis("threads", "count"), new Axis("cost per switch", "us"),
                List.of(new Series("measured", List.of(new Series.Point(2, 1.5), new Series.Point(100, 2.5), new Series.Point(1000, 4.75))),
                        new Series("empty", List.of())), false, false, "Synthetic, linear axes.");
        Chart bars = new Chart.BarChart("Gaps and zeros", new Axis("model", ""), List.of("a", "b", "c"), new Axis("requests per second", "req/s"),
                List.of(new Bars("first", Arrays.asList(10.0, null, 0.0)), new Bars("second", List.of(1000.0, 5.0, 0.5))), true,
                "A null is no bar; a zero on a log axis is marked 0.");
        Chart empty = new Chart.BarChart("No data", new Axis("model", ""), List.of(), new Axis("x", "ms"), List.of(), false, "Nothing to draw.");
        return new ExperimentResult("hand-made", "charts drawn from fixed data", "full", MACHINE, List.of(), List.of(),
                List.of(), List.of(loglog, linear, bars, empty));
    }
}
