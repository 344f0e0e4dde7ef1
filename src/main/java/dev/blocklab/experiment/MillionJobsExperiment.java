package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.model.Models;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Seed 004's job (a 100 ms sleep) a million times at once under the {@code virtual} model, beside the bare JDK
 * starting a million virtual threads that sleep as long: the engine at a million, against its floor. The two
 * rows run in alternation in this JVM (floor, engine, floor, engine, ...) after warm-up rounds that are not
 * counted, so a busy machine slows both alike; the ratio is taken round by round and its median reported.
 */
final class MillionJobsExperiment implements Experiment {
    static final String MODEL = "virtual";

    private final int requests;
    private final long jobNanos;
    private final int warmups;

    MillionJobsExperiment() { this(1_000_000, 100_000_000L, 2); }

    /** @param requests jobs in the batch; @param jobNanos each job's sleep; @param warmups rounds not counted */
    MillionJobsExperiment(int requests, long jobNanos, int warmups) {
        if (requests < 1 || jobNanos < 1) throw new IllegalArgumentException("requests and job length must be positive");
        if (warmups < 0) throw new IllegalArgumentException("warm-ups must be >= 0");
        this.requests = requests;
        this.jobNanos = jobNanos;
        this.warmups = warmups;
    }

    /**
     * One row, over the measured rounds.
     *
     * @param successes                jobs that completed normally in the last round
     * @param medianWallMillis         from the first start to the last completion, median of the rounds
     * @param ratioToFloor             median wall / the floor's median wall (1 for the floor)
     * @param medianRoundRatio         median over the rounds of this row's wall / the floor's wall in the same round
     *                                 (1 for the floor): the figure a noisy machine disturbs least
     * @param medianCpuMillis          process CPU time (getrusage) of a run, median of the rounds
     * @param allocatedBytesPerRequest bytes the JVM allocated per job, median of the rounds
     * @param peakRssMiB               the process's resident set at its highest during this row's runs (sampled every
     *                                 10 ms; a process keeps what it once touched, so both rows read about the same)
     */
    public record MillionRow(String row, String kind, int requests, long successes, double jobMillis,
                             double medianWallMillis, double bestWallMillis, double worstWallMillis, int repeats,
                             double ratioToFloor, double medianRoundRatio, double medianCpuMillis,
                             double allocatedBytesPerRequest, double peakRssMiB) {}

    @Override public String name() { return "million-jobs"; }

    @Override public boolean usesTimeScale() { return false; }

    @Override public String description() {
        return "1,000,000 jobs of 100 ms at once under virtual, beside the bare JDK starting as many sleeping virtual threads";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        int repeats = settings.full() ? 5 : 3;
        // ten-thousand-jobs's graph (one job answering 0), as `run --workload ten-thousand-jobs --requests N` runs it
        Workload workload = new Workload("ten-thousand-jobs", String.format(Locale.ROOT, "%,d jobs sleeping %s at once",
                requests, Durations.format(jobNanos)), Graph.singleCall(Step.Call.fixed("job", jobNanos, 0L)), new Arrival.Batch(requests));
        RunSettings runSettings = RunSettings.DEFAULTS.withTimeScale(1);
        InProcessDriver driver = new InProcessDriver();
        BareBatches.Batch floorBatch = BareBatches.virtualSleeps(requests, jobNanos);

        List<BareBatches.BareRun> floors = new ArrayList<>();
        List<RunResult> engines = new ArrayList<>();
        for (int round = 0; round < warmups + repeats; round++) {
            String phase = round < warmups ? "warm-up " + (round + 1) + "/" + warmups : "round " + (round - warmups + 1) + "/" + repeats;
            settings.progress().update("bare virtual threads " + phase);
            BareBatches.BareRun floor = BareBatches.runOnce(floorBatch);
            settings.progress().update(MODEL + " " + phase);
            RunResult engine = driver.runOnce(workload, MODEL, context -> Models.create(MODEL, context), runSettings,
                    line -> settings.progress().update(MODEL + " " + phase + ": " + line));
            if (round >= warmups) {
                floors.add(floor);
                engines.add(engine);
            }
        }

        double[] floorWalls = floors.stream().mapToDouble(BareBatches.BareRun::wallMillis).toArray();
        double[] engineWalls = engines.stream().mapToDouble(r -> r.timing().wallMillis()).toArray();
        double[] roundRatios = new double[repeats];
        for (int i = 0; i < repeats; i++) roundRatios[i] = engineWalls[i] / floorWalls[i];
        double floorMedian = median(floorWalls);
        double jobMillis = jobNanos / 1e6;
        MillionRow floorRow = new MillionRow("bare virtual threads",
                "floor: Thread.startVirtualThread, each sleeps the job's length, no engine", requests,
                floors.getLast().successes(), jobMillis, floorMedian, min(floorWalls), max(floorWalls), repeats, 1, 1,
                median(floors.stream().mapToDouble(BareBatches.BareRun::cpuMillis).toArray()),
                median(floors.stream().mapToDouble(f -> f.allocatedBytes() / (double) requests).toArray()),
                floors.stream().mapToLong(BareBatches.BareRun::peakRssBytes).max().orElse(-1) / 1048576.0);
        MillionRow engineRow = new MillionRow(MODEL, "engine: " + MODEL, requests, engines.getLast().counts().successes(), jobMillis,
                median(engineWalls), min(engineWalls), max(engineWalls), repeats, median(engineWalls) / floorMedian,
                median(roundRatios), median(engines.stream().mapToDouble(r -> r.resources().cpuMillis()).toArray()),
                median(engines.stream().mapToDouble(r -> r.resources().allocatedBytes() / (double) requests).toArray()),
                engines.stream().mapToLong(r -> r.resources().peakRssBytes()).max().orElse(-1) / 1048576.0);
        List<MillionRow> rows = List.of(floorRow, engineRow);
        rows.forEach(settings.rowSink());

        String title = String.format(Locale.ROOT, "%,d jobs of %s at once", requests, Durations.format(jobNanos));
        List<List<String>> cells = rows.stream().map(r -> List.of(r.row(), r.kind(), String.valueOf(r.requests()),
                String.valueOf(r.successes()), RunTables.ms(r.medianWallMillis()),
                RunTables.ms(r.bestWallMillis()) + " - " + RunTables.ms(r.worstWallMillis()),
                String.format(Locale.ROOT, "%.2f", r.ratioToFloor()), String.format(Locale.ROOT, "%.2f", r.medianRoundRatio()),
                RunTables.ms(r.medianCpuMillis()), String.format(Locale.ROOT, "%.0f", r.allocatedBytesPerRequest()),
                String.format(Locale.ROOT, "%.0f", r.peakRssMiB()))).toList();
        return new ExperimentResult(name(), description(), "real time, " + title + ", median of " + repeats
                + " alternating rounds after " + warmups + " warm-up round(s)", settings.environment(), rows,
                List.of(new Table(title, List.of("row", "kind", "requests", "ok", "median wall ms", "range ms",
                        "median / floor median", "median round ratio", "cpu ms", "alloc B/job", "peak RSS MiB"), cells)),
                java.util.stream.Stream.concat(noise(floorRow, engineRow).stream(), java.util.stream.Stream.of("Wall time from the first start to the last completion (System.nanoTime); every run starts after a "
                                + "full GC. Floor and engine alternate in one JVM, so load from elsewhere on the machine slows "
                                + "both; the median round ratio compares the two runs of each round.",
                        "The floor is the cost of " + String.format(Locale.ROOT, "%,d", requests) + " virtual threads on "
                                + "this JDK and these " + Runtime.getRuntime().availableProcessors() + " cores: the engine "
                                + "adds a request object, a future, a recorded latency and its own frames on each waiting "
                                + "stack (see docs/benchmarks.md for where the rest goes).",
                        "A batch this large keeps nearly every job alive until its sleep ends, so any young collection "
                                + "during a run copies them all; the launcher sizes the young generation so that a run of a "
                                + "million jobs needs none (see docs/benchmarks.md).",
                        "Peak RSS is the process's, sampled: it keeps memory once touched, so in one JVM it shows the "
                                + "larger row; allocated bytes per job compare the rows, and separate processes give each "
                                + "its own RSS (docs/benchmarks.md).")).toList());
    }

    /**
     * A caution when the rounds say more about the machine than the engine: the engine measured faster than the bare
     * threads it adds to, or the floor's own runs spread by more than a third.
     */
    static java.util.Optional<String> noise(MillionRow floor, MillionRow engine) {
        double spread = floor.worstWallMillis() / floor.bestWallMillis() - 1;
        if (!(engine.ratioToFloor() < 1) && !(spread > 1.0 / 3)) return java.util.Optional.empty();
        return java.util.Optional.of(String.format(Locale.ROOT, "Noise: the floor's runs took %s to %s ms (%.0f %% apart)%s; on this "
                        + "machine the load from elsewhere outweighed the engine's cost this time, so read the ratios as noise and "
                        + "rerun (--full takes more rounds).", RunTables.ms(floor.bestWallMillis()), RunTables.ms(floor.worstWallMillis()),
                spread * 100, engine.ratioToFloor() < 1 ? String.format(Locale.ROOT, ", and the engine's median came out %.2f x the "
                        + "floor's, faster than the bare threads it runs on", engine.ratioToFloor()) : ""));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(sorted.length - 1) / 2];
    }

    private static double min(double[] values) { return Arrays.stream(values).min().orElse(Double.NaN); }

    private static double max(double[] values) { return Arrays.stream(values).max().orElse(Double.NaN); }
}
