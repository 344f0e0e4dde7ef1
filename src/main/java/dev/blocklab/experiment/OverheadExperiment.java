package dev.blocklab.experiment;

import dev.blocklab.report.Deviation;
import dev.blocklab.report.RunTables;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.LabelledRun;
import dev.blocklab.model.Models;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The engine's own cost: a batch of short calls under every model, measured against each model's prediction.
 * What is left over (wall minus prediction, per request) is what submitting, scheduling, completing and recording
 * a request costs in that model on this machine.
 */
final class OverheadExperiment implements Experiment {
    static final long CALL_NANOS = 1_000_000L;

    /**
     * One model's overhead.
     *
     * @param overheadMicrosPerRequest (wall - predicted) / requests, in microseconds
     * @param measuredOverPredicted    wall over predicted, and beyond 20 % its likely cause ({@link Deviation#flag})
     */
    public record OverheadRow(String model, long requests, double wallMillis, double predictedMillis,
                              double idealMillis, double overheadMicrosPerRequest, double cpuMicrosPerRequest,
                              int peakPlatformThreads, String predictionBasis, String measuredOverPredicted) {}

    @Override public String name() { return "overhead"; }

    @Override public boolean usesTimeScale() { return false; }

    @Override public String description() {
        return "the engine's own cost: 10,000 concurrent 1 ms calls under every model, beside each model's prediction";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        int requests = settings.full() ? 100_000 : 10_000;
        Workload w = new Workload("short-calls", "one call of 1 ms", Graph.singleCall(Step.Call.fixed("call", CALL_NANOS, 1L)),
                new Arrival.Batch(requests));
        SeedRuns runs = new SeedRuns(settings.withTimeScale(1));
        List<OverheadRow> rows = new ArrayList<>();
        List<RunResult> results = new ArrayList<>();
        for (dev.blocklab.model.ModelEntry info : Models.catalog()) {
            if (info.unavailable().isPresent()) continue;
            String spec = info.needsSize() ? info.family() + ":" + (info.family().equals("fixed") || info.family().startsWith("cf-blocking") ? 100 : 8) : info.family();
            RunResult r = runs.measure(w, spec);
            results.add(r);
            OverheadRow row = new OverheadRow(spec, r.counts().requests(), r.timing().wallMillis(), r.prediction().predictedMillis(), r.prediction().idealMillis(),
                    (r.timing().wallMillis() - r.prediction().predictedMillis()) * 1e3 / r.counts().requests(), r.resources().cpuMillis() * 1e3 / r.counts().requests(),
                    r.resources().peakPlatformThreads(), r.prediction().predictionBasis(), Deviation.of(r).flag());
            settings.rowSink().accept(row);
            rows.add(row);
        }
        List<List<String>> cells = rows.stream().map(r -> List.of(r.model(), String.valueOf(r.requests()),
                RunTables.ms(r.wallMillis()), RunTables.ms(r.predictedMillis()), RunTables.ms(r.idealMillis()),
                String.format(Locale.ROOT, "%.2f", r.overheadMicrosPerRequest()),
                String.format(Locale.ROOT, "%.2f", r.cpuMicrosPerRequest()), String.valueOf(r.peakPlatformThreads()),
                r.measuredOverPredicted(), r.predictionBasis())).toList();
        return new ExperimentResult(name(), description(), "real time, " + requests + " requests", settings.environment(), rows,
                List.of(new Table(requests + " concurrent calls of 1 ms", List.of("model", "requests", "wall ms", "predicted ms",
                        "ideal ms", "overhead us/request", "cpu us/request", "peak threads", "measured/predicted", "prediction"), cells)),
                java.util.stream.Stream.concat(results.stream().filter(r -> Deviation.of(r).flagged()).map(r -> r.model() + ": " + RunTables.deviation(r)), java.util.stream.Stream.of("Overhead = (wall - predicted) / requests: the time per request that the model and the engine add beyond waiting "
                                + "(submit, thread start or task hand-off, timer, completion, recording). Negative values mean the prediction was pessimistic.",
                        "CPU per request = process CPU time (getrusage, all threads, GC and JIT included) / requests.",
                        "Pool sizes: fixed and cf-blocking 100 threads, the other sized pools (forkjoin, forkjoin-managed, cf-nonblocking) 8, so every "
                                + "model finishes in seconds; cached and virtual have no pool, scala-global sizes its own from the cores "
                                + "(its prediction says how many); sequential runs the calls one after another.")).toList())
                .withCharts(RunCharts.standard(requests + " calls of 1 ms", LabelledRun.byModel(results)));
    }
}
