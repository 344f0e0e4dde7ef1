package dev.blocklab.report;

import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Series;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.zip.DataFormatException;

/**
 * The standard charts over a list of runs, so an experiment gets them with one call:
 * {@code result.withCharts(RunCharts.standard("100 calls", LabelledRun.byModel(runs)))}. Each chart is pure data
 * ({@link Chart}) with a caption saying how it was measured; the HTML report draws them.
 */
public final class RunCharts {
    /** Values spanning more than this ratio get a log scale in the charts that choose their own. */
    static final double LOG_SPAN = 30;
    private static final Axis ROW = new Axis("run", "");

    private RunCharts() {}

    /**
     * Wall time beside prediction, latency percentiles, the latency spectrum, success ratio, threads, memory and
     * cost per request, each titled {@code subject: ...}.
     */
    public static List<Chart> standard(String subject, List<LabelledRun> runs) {
        return List.of(wallTime(subject, runs), latencyByRun(subject, runs), latencySpectrum(subject, runs),
                successRatio(subject, runs), threads(subject, runs), memory(subject, runs), costPerRequest(subject, runs));
    }

    /**
     * A knee curve: a latency percentile against the offered rate, one line per entry of a rate search (log-log, so
     * a knee shows at any rate); {@code percentile} names it ({@code p99}), {@code caption} says how it was measured.
     */
    public static Chart latencyAgainstRate(String percentile, List<Series> series, String caption) {
        return new Chart.LineChart(percentile + " latency against offered rate", new Axis("offered rate", "req/s"),
                new Axis(percentile + " latency", "ms"), series, true, true, caption);
    }

    /**
     * What each run's prediction predicts, measured beside it, and the critical path: the wall time of a batch,
     * one request's mean latency for open and closed arrivals (a wall time there is the schedule's length).
     */
    public static Chart wallTime(String subject, List<LabelledRun> runs) {
        List<Bars> bars = List.of(bars("measured", runs, RunResult::measuredMillis), bars("predicted", runs, r -> r.prediction().predictedMillis()),
                bars("ideal (critical path, no call failing)", runs, r -> r.prediction().idealMillis()));
        long batches = runs.stream().filter(r -> r.run().predictsWallTime()).count();
        String what = batches == runs.size() ? "wall time" : batches == 0 ? "mean latency" : "wall time or mean latency";
        String measured = batches == runs.size() ? "Wall time by System.nanoTime from the first submit to the last completion" + repeats(runs)
                : batches == 0 ? "Mean latency from each request's intended start"
                : "A batch's wall time by System.nanoTime from the first submit to the last completion" + repeats(runs)
                  + "; for open and closed arrivals, the mean latency from each request's intended start";
        return new Chart.BarChart(subject + ": " + what + ", measured beside predicted", ROW, labels(runs),
                new Axis(what, "ms"), bars, spansWidely(bars),
                measured + "; predicted by each model's formula; ideal = one request's critical path" + scale(runs) + ".");
    }

    /** p50, p99 and p99.9 latency per run. */
    public static Chart latencyByRun(String subject, List<LabelledRun> runs) {
        List<Bars> bars = List.of(bars("p50", runs, r -> r.timing().latencyMillis().p50()), bars("p99", runs, r -> r.timing().latencyMillis().p99()),
                bars("p99.9", runs, r -> r.timing().latencyMillis().p999()));
        return new Chart.BarChart(subject + ": latency p50, p99 and p99.9", ROW, labels(runs), new Axis("latency", "ms"),
                bars, spansWidely(bars), "Latency from each request's intended start, HdrHistogram of nanoseconds (3 significant digits), "
                + counts(runs) + scale(runs) + ".");
    }

    /** Successes over completed requests, per run. */
    public static Chart successRatio(String subject, List<LabelledRun> runs) {
        return new Chart.BarChart(subject + ": success ratio", ROW, labels(runs), new Axis("successful requests", "%"),
                List.of(bars("success", runs, r -> r.successRatio() * 100)), false,
                "Successes over completed requests (failures, timeouts and cancellations count against), " + counts(runs) + ".");
    }

    /** Peak platform threads, platform threads started and peak OS threads, per run. */
    public static Chart threads(String subject, List<LabelledRun> runs) {
        List<Bars> bars = List.of(bars("peak platform threads", runs, r -> r.resources().peakPlatformThreads()),
                bars("platform threads started", runs, r -> r.resources().platformThreadsStarted()),
                bars("peak OS threads", runs, r -> r.resources().peakOsThreads()));
        return new Chart.BarChart(subject + ": threads", ROW, labels(runs), new Axis("threads", "count"), bars, spansWidely(bars),
                "Peak live platform threads (ThreadMXBean, JVM-wide, virtual threads excluded); threads started during the run; "
                        + "OS threads of the process sampled from /proc/self/status every 10 ms.");
    }

    /** Peak resident memory and heap allocation, per run. */
    public static Chart memory(String subject, List<LabelledRun> runs) {
        List<Bars> bars = List.of(bars("peak RSS", runs, r -> r.resources().peakRssBytes() < 0 ? Double.NaN : RunTables.mibValue(r.resources().peakRssBytes())),
                bars("allocated", runs, r -> r.resources().allocatedBytes() < 0 ? Double.NaN : RunTables.mibValue(r.resources().allocatedBytes())));
        return new Chart.BarChart(subject + ": memory", ROW, labels(runs), new Axis("memory", "MiB"), bars, spansWidely(bars),
                "Peak resident set sampled from /proc/self/status every 10 ms (whole JVM, heap as sized so far); "
                        + "heap bytes allocated by all threads during the run (ThreadMXBean).");
    }

    /**
     * CPU, allocation, context switches and platform threads per completed request; the HTML report draws one
     * panel per unit (small multiples), since the four share no axis.
     */
    public static Chart costPerRequest(String subject, List<LabelledRun> runs) {
        List<Bars> bars = List.of(
                bars("CPU us", runs, r -> perRequest(r, r.resources().cpuMillis() * 1000)),
                bars("allocated KiB", runs, r -> perRequest(r, r.resources().allocatedBytes() < 0 ? Double.NaN : r.resources().allocatedBytes() / 1024.0)),
                bars("context switches", runs, r -> perRequest(r, r.resources().contextSwitches().total() < 0 ? Double.NaN : r.resources().contextSwitches().total())),
                bars("platform threads started", runs, r -> perRequest(r, r.resources().platformThreadsStarted())));
        return new Chart.BarChart(subject + ": cost per request", ROW, labels(runs), new Axis("cost per request", "unit in legend"),
                bars, true, "Whole-process figures of the run divided by its completed requests: CPU (getrusage, user + system, "
                + "GC and JIT included), heap allocation, voluntary + involuntary context switches, platform threads started; one panel per unit, "
                + "a log scale where a panel's values span more than 30 x, zeros marked 0.");
    }

    /**
     * The latency distribution as a percentile spectrum: latency against percentile, the percentile drawn as
     * {@code 1/(1-p)} on a log scale so that p90, p99 and p99.9 are evenly spaced; one line per run.
     */
    public static Chart latencySpectrum(String subject, List<LabelledRun> runs) {
        List<Series> series = new ArrayList<>();
        long maxCount = 1;
        for (LabelledRun lr : runs) {
            Histogram h = decode(lr.run().timing().latencyHistogram());
            if (h == null || h.getTotalCount() == 0) continue;
            maxCount = Math.max(maxCount, h.getTotalCount());
            series.add(new Series(lr.label(), Series.spectrum(h)));
        }
        List<Axis.Tick> ticks = new ArrayList<>();
        String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%", "99.9999%"};
        for (int d = 0; d < labels.length && Math.pow(10, d) <= Math.max(10, maxCount); d++)
            ticks.add(new Axis.Tick(Math.pow(10, d), labels[d]));
        return new Chart.LineChart(subject + ": latency percentile spectrum",
                new Axis("percentile, spaced as 1/(1-p)", "", ticks), new Axis("latency", "ms"), series, true, true,
                "Latency from each request's intended start, HdrHistogram of nanoseconds (3 significant digits); "
                        + "each line stops at the highest percentile its request count resolves (runs of one request are left out: "
                        + "one latency has no distribution), " + counts(runs) + scale(runs) + ".");
    }

    /** Decodes {@link RunResult#latencyHistogram()}; null when absent or unreadable. */
    public static Histogram decode(String base64) {
        if (base64 == null || base64.isEmpty()) return null;
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            return null;
        }
    }

    private static double perRequest(RunResult r, double total) {
        return r.counts().requests() == 0 || Double.isNaN(total) ? Double.NaN : total / r.counts().requests();
    }

    private static Bars bars(String name, List<LabelledRun> runs, ToDoubleFunction<RunResult> value) {
        List<Double> values = new ArrayList<>();
        for (LabelledRun lr : runs) {
            double v = value.applyAsDouble(lr.run());
            values.add(Double.isFinite(v) ? v : null);
        }
        return new Bars(name, values);
    }

    private static List<String> labels(List<LabelledRun> runs) {
        return runs.stream().map(LabelledRun::label).toList();
    }

    public static boolean spansWidely(List<Bars> bars) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (Bars b : bars)
            for (Double v : b.values())
                if (v != null && v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
        return max > 0 && max / min > LOG_SPAN;
    }

    private static String counts(List<LabelledRun> runs) {
        long min = runs.stream().mapToLong(r -> r.run().counts().requests()).min().orElse(0);
        long max = runs.stream().mapToLong(r -> r.run().counts().requests()).max().orElse(0);
        return min == max ? min + (min == 1 ? " request per run" : " requests per run") : min + " to " + max + " requests per run";
    }

    private static String repeats(List<LabelledRun> runs) {
        int max = runs.stream().mapToInt(r -> r.run().repeats().count()).max().orElse(1);
        return max > 1 ? ", median of up to " + max + " runs" : "";
    }

    private static String scale(List<LabelledRun> runs) {
        List<Long> scales = runs.stream().map(r -> r.run().timeScaleDivisor()).distinct().sorted().toList();
        if (scales.isEmpty() || scales.equals(List.of(1L))) return "; real delays";
        return "; delays / " + scales.stream().map(s -> String.format(Locale.ROOT, "%d", s)).reduce((a, b) -> a + ", " + b).orElse("");
    }
}
