package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.LabelledRun;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
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
 * A batch of concurrent calls of one second (100,000 by default) under the two models that hold no platform
 * thread while waiting, beside the same waits made by the bare JDK with no engine at all: timer-completed futures,
 * and virtual threads that sleep. The bare rows are the floor of this machine and JDK; what an engine row takes
 * beyond its floor is the engine's own cost (building and recording requests), and a goal such as "within
 * 1.05 x of the call" can only be met where the floor itself is under it.
 */
final class HundredThousandCallsExperiment implements Experiment {
    private final int requests;
    private final long callNanos;

    HundredThousandCallsExperiment() { this(100_000, 1_000_000_000L); }

    /** @param requests calls in the batch; @param callNanos each call's delay (tests shorten both) */
    HundredThousandCallsExperiment(int requests, long callNanos) {
        if (requests < 1 || callNanos < 1) throw new IllegalArgumentException("requests and call delay must be positive");
        this.requests = requests;
        this.callNanos = callNanos;
    }

    /**
     * One row: wall times of the repeats, from the first submit to the last completion.
     *
     * @param successes       calls that completed normally (a floor row waits for all of them)
     * @param ratioToCall     median wall / call delay
     * @param overFloorMillis median wall minus the median of this row's bare floor (0 for a floor row)
     * @param cpuMillis       process CPU time (getrusage) of one run: the median run's for an engine row, the mean
     *                        over the repeats for a floor row
     */
    public record FloorRow(String row, String kind, int requests, long successes, double callMillis, double medianWallMillis,
                           double bestWallMillis, double worstWallMillis, int repeats, double ratioToCall,
                           double overFloorMillis, double cpuMillis) {}

    @Override public String name() { return "hundred-thousand-calls"; }

    @Override public boolean usesTimeScale() { return false; }

    @Override public String description() {
        return "100,000 concurrent 1 s calls under cf-nonblocking and virtual, beside the bare JDK doing the same waits with no engine";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        int warmups = 3;   // the first two or three batches of 100,000 virtual threads run slow (up to 2 x) while the JIT settles
        int repeats = settings.full() ? 7 : 3;
        int cores = Runtime.getRuntime().availableProcessors();
        Workload workload = new Workload("hundred-thousand-calls", requests + " concurrent calls of " + Durations.format(callNanos),
                Graph.singleCall(Step.Call.fixed("call", callNanos, 99L)), new Arrival.Batch(requests));
        RunSettings runSettings = RunSettings.DEFAULTS.withTimeScale(1).withRuns(warmups, repeats);
        InProcessDriver driver = new InProcessDriver();
        double callMillis = callNanos / 1e6;

        List<FloorRow> rows = new ArrayList<>();
        List<RunResult> runs = new ArrayList<>();
        FloorRow timerFloor = floor("bare timer futures", "one timer thread per core completes a future per call, no engine",
                warmups, repeats, settings, BareBatches.timerFutures(requests, callNanos, cores));
        rows.add(emit(settings, timerFloor));
        RunResult cf = driver.run(workload, "cf-nonblocking:" + cores, runSettings, line -> settings.progress().update(line));
        runs.add(cf);
        rows.add(emit(settings, engineRow(cf, timerFloor, callMillis)));
        FloorRow virtualFloor = floor("bare virtual threads", "Thread.startVirtualThread, each sleeps the call's delay, no engine",
                warmups, repeats, settings, BareBatches.virtualSleeps(requests, callNanos));
        rows.add(emit(settings, virtualFloor));
        RunResult virtual = driver.run(workload, "virtual", runSettings, line -> settings.progress().update(line));
        runs.add(virtual);
        rows.add(emit(settings, engineRow(virtual, virtualFloor, callMillis)));

        List<List<String>> cells = rows.stream().map(r -> List.of(r.row(), r.kind(), String.valueOf(r.requests()),
                RunTables.ms(r.medianWallMillis()), RunTables.ms(r.bestWallMillis()) + " - " + RunTables.ms(r.worstWallMillis()),
                String.format(Locale.ROOT, "%.3f", r.ratioToCall()), r.ratioToCall() <= 1.05 ? "yes" : "no",
                r.kind().startsWith("engine") ? String.format(Locale.ROOT, "%+.0f", r.overFloorMillis()) : "-",
                r.kind().startsWith("engine") ? String.format(Locale.ROOT, "%.2f", r.overFloorMillis() * 1e3 / r.requests()) : "-",
                RunTables.ms(r.cpuMillis()))).toList();
        return new ExperimentResult(name(), description(), "real time, " + requests + " calls of " + Durations.format(callNanos)
                + ", median of " + repeats + " after " + warmups + " warm-up(s)", settings.environment(), rows,
                List.of(new Table(requests + " concurrent calls of " + Durations.format(callNanos), List.of("row", "kind",
                        "requests", "median wall ms", "range ms", "median / call", "within 1.05 x", "over floor ms",
                        "over floor us/request", "cpu ms"), cells)),
                List.of("Wall time from the first submit to the last completion (System.nanoTime), median of the repeats; every run starts "
                                + "after a full GC. The bare rows use no engine: they are the cost of " + requests
                                + " waits on this JDK and these " + cores + " cores, the floor under the engine's rows.",
                        "Over floor = engine median - its floor's median: building each request from the workload graph, the model's "
                                + "hand-offs and recording its latency. The floor itself is set by how fast " + cores
                                + " cores can start " + requests + " waits (a virtual thread must run up to its sleep before its "
                                + "second starts counting) and complete them; with more cores it shrinks.",
                        "A goal of 1.05 x the call can be met by an engine row only where its floor is under it.",
                        "Every row gets " + warmups + " warm-up batches: in a fresh JVM the first two or three batches of 100,000 virtual "
                                + "threads took up to 2 x longer here (JIT), with no collection during them."))
                .withCharts(RunCharts.standard(requests + " calls of " + Durations.format(callNanos), LabelledRun.byModel(runs)));
    }

    private static FloorRow engineRow(RunResult r, FloorRow floor, double callMillis) {
        return new FloorRow(r.model(), "engine: " + r.model(), (int) r.counts().requests(), r.counts().successes(), callMillis, r.timing().wallMillis(),
                r.repeats().wallMillisMin(), r.repeats().wallMillisMax(), r.repeats().count(), r.timing().wallMillis() / callMillis,
                r.timing().wallMillis() - floor.medianWallMillis(), r.resources().cpuMillis());
    }

    private FloorRow floor(String row, String kind, int warmups, int repeats, ExperimentSettings settings, BareBatches.Batch batch) {
        double[] walls = new double[repeats];
        long successes = 0;
        double cpuMillis = 0;
        for (int i = 0; i < warmups + repeats; i++) {
            settings.progress().update(row + (i < warmups ? " warm-up " + (i + 1) : " run " + (i - warmups + 1) + "/" + repeats));
            BareBatches.BareRun run = BareBatches.runOnce(batch);
            if (i >= warmups) {
                walls[i - warmups] = run.wallMillis();
                successes = run.successes();
                cpuMillis += run.cpuMillis() / repeats;
            }
        }
        double[] sorted = walls.clone();
        Arrays.sort(sorted);
        double median = sorted[(repeats - 1) / 2];
        return new FloorRow(row, "floor: " + kind, requests, successes, callNanos / 1e6, median, sorted[0], sorted[repeats - 1],
                repeats, median / (callNanos / 1e6), 0, cpuMillis);
    }

    private static <T> T emit(ExperimentSettings settings, T row) {
        settings.rowSink().accept(row);
        return row;
    }
}
