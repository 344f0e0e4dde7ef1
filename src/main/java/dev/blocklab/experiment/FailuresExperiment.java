package dev.blocklab.experiment;

import dev.blocklab.report.RunTables;
import dev.blocklab.backend.Backend;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.ModelEntry;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.registry.Registry;
import dev.blocklab.model.Prediction;
import dev.blocklab.model.Tasks;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.FailureScore;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code reproduce failures}: how each model and framework variant fails. A fan-out whose every request fails: {@code profile} answers
 * after 300 ms, {@code hang} after 2 s, and {@code audit}, which feeds nothing, always fails after 20 ms; open
 * load. Under the failure semantics (docs/workloads.md) a model that overlaps the calls learns of the failure at
 * 20 ms and must cancel the two siblings; a model that walks the steps in order meets it only after 2.32 s. Beside
 * every registered model runs one deliberately wrong variant: {@code supplyAsync} with
 * {@code CompletableFuture.cancel}, which does not interrupt, so its siblings run on for nobody and hold pool
 * threads. The framework variants, which make only seed 002's four calls, run the same shape on those
 * ({@link #variantWorkload}). Rows are {@link FailuresRow}s; predictions are computed from the graph and beside
 * each measurement.
 */
final class FailuresExperiment implements Experiment {
    private static final long MS = 1_000_000L;
    static final long PROFILE_NANOS = 300 * MS, HANG_NANOS = 2_000 * MS, AUDIT_NANOS = 20 * MS;
    static final String WRONG = "supplyasync-uncancelled:8";

    @Override public String name() { return "failures"; }

    @Override public String description() {
        return "a fan-out with one failing and one hanging branch under every model, open load: who cancels, who leaks work, time to fail";
    }

    /** The fan-out: two branches the answer reads, and a failing one it does not. */
    static Workload workload(boolean full) {
        Graph graph = new Graph(0L, List.of(
                new Step.Call("profile", List.of(), new Latency.Fixed(PROFILE_NANOS), new Value.Constant(1L), 0, null, 0),
                new Step.Call("hang", List.of(), new Latency.Fixed(HANG_NANOS), new Value.Constant(2L), 0, null, 0),
                new Step.Call("audit", List.of(), new Latency.Fixed(AUDIT_NANOS), new Value.Constant(0L), 1,
                        new Step.FailureSpec("java.io.IOException", "audit service unavailable"), 0),
                new Step.Combine("page", List.of("profile", "hang"), new Value.Sum(0))));
        return new Workload("fan-out-failing", "profile 300 ms, hang 2 s, audit fails at 20 ms (feeds nothing)", graph,
                new Arrival.Open(full ? 20 : 10, (full ? 10_000 : 2_000) * MS));
    }

    /**
     * What the framework variants run instead (they make only seed 002's four calls): posts and albums hang 2 s,
     * comments always fails after 20 ms, photos answers after 300 ms (so no sibling ends on its own at the failure).
     */
    static Workload variantWorkload(boolean full) {
        Workload w = FrameworksUseCase.workload(HANG_NANOS, PROFILE_NANOS, workload(full).arrival(), "comments",
                new Step.FailureSpec("java.io.IOException", "comments service unavailable"));
        List<Step> steps = new ArrayList<>(w.graph().steps());
        Step.Call comments = (Step.Call) steps.get(FrameworksUseCase.COMMENTS);
        steps.set(FrameworksUseCase.COMMENTS, new Step.Call(comments.name(), comments.inputs(), new Latency.Fixed(AUDIT_NANOS),
                comments.returns(), comments.failureProbability(), comments.failure(), comments.timeoutNanos()));
        return new Workload("frameworks-failing", "seed 002's calls: posts and albums hang 2 s, comments fails at 20 ms, photos 300 ms",
                new Graph(w.graph().input(), steps), w.arrival());
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        Workload workload = workload(settings.full());
        Workload variants = variantWorkload(settings.full());
        RunSettings run = new RunSettings(settings.timeScale(), 0, 1, 0, dev.blocklab.Defaults.SEED, 256);
        InProcessDriver driver = new InProcessDriver();
        List<FailuresRow> rows = new ArrayList<>();
        List<ModelSpec> specs = new ArrayList<>();
        for (ModelEntry entry : Registry.all())
            if (entry.unavailable().isEmpty()) specs.add(new ModelSpec(entry, entry.needsSize() ? 8 : 0));
        for (ModelSpec spec : specs) {
            settings.progress().update(spec.text());
            Workload w = spec.entry().kind() == ModelEntry.Kind.VARIANT ? variants : workload;
            // the model's own formula for one request alone says whether its calls run in step order
            Prediction alone = InProcessDriver.predict(w.withArrival(new Arrival.Batch(1)), spec, run);
            boolean inOrder = alone.path() == dev.blocklab.workload.RequestTimes.Path.SERIAL;
            FailuresRow row = row(driver.run(w, spec, run, settings.progress()), w.graph(), false, inOrder);
            settings.rowSink().accept(row);
            rows.add(row);
        }
        settings.progress().update(WRONG);
        RunResult wrong = driver.run(workload, WRONG, c -> new UncancelledSupplyAsync(c.backend(), 8), run, settings.progress());
        FailuresRow row = row(wrong, workload.graph(), true, false);   // a supplyAsync per call: they overlap
        settings.rowSink().accept(row);
        rows.add(row);
        return result(settings, workload, variants, rows);
    }

    /** Pure: the row of one run, with what the graph predicts for its way of running the calls. */
    static FailuresRow row(RunResult r, Graph graph, boolean leaksByDesign, boolean inOrder) {
        double scale = r.timeScaleDivisor();
        long failAt = failNanos(graph, inOrder);
        double predictedFail = failAt / scale / 1e6;
        double predictedOrphan = leaksByDesign ? orphanNanos(graph, failAt) / scale / 1e6 : 0;
        FailureScore f = r.failureScore();
        long failed = r.counts().failures() + r.counts().timeouts() + r.counts().cancelled();
        double orphanPerFailed = failed == 0 ? 0 : f.orphanBackendMillis() / failed;
        // a call may end on its own in the instant its cancel is sent: a tenth of the requests is the noise allowed
        // a call that ran on after its request ended leaks; one that ran to its end while its request waited for it
        // does not fail fast (ExecutorService.invokeAll, a latch over every call)
        long ranOn = f.cancellationsRequested() - f.cancellationsHonoured();
        String verdict = f.callsLeftRunning() > 0 || f.honouredRatio() < 0.9 && f.orphanedCalls() > 0
                ? "leaks: " + ranOn + " of " + f.cancellationsRequested() + " calls ran on"
                : f.honouredRatio() < 0.9 ? "waits: " + ranOn + " of " + f.cancellationsRequested() + " calls ran to their end"
                : f.cancellationsRequested() == 0 ? "nothing left to cancel" : "cancels";
        return new FailuresRow(r.model(), inOrder ? "in step order" : "overlapped", r.counts().requests(), failed,
                predictedFail, r.timing().latencyMillis().mean(), r.timing().latencyMillis().p99(), f.meanTimeToFailMillis(),
                f.cancellationsRequested(), f.cancellationsHonoured(), f.orphanedCalls(), predictedOrphan,
                orphanPerFailed, f.callsLeftRunning(), r.resources().leftoverThreads(), verdict, r);
    }

    /**
     * When one request alone learns of its failure, for a fan-out whose calls always fail or always succeed: the
     * first failing call's latency when the calls overlap; when they run in step order, every call's up to it.
     */
    static long failNanos(Graph graph, boolean inOrder) {
        long sum = 0, first = Long.MAX_VALUE;
        for (Step s : graph.steps()) {
            if (!(s instanceof Step.Call c)) continue;
            long latency = c.latency().expectedNanos();
            sum += latency;
            if (c.failureProbability() >= 1) {
                if (inOrder) return sum;
                first = Math.min(first, latency);
            }
        }
        return first == Long.MAX_VALUE ? 0 : first;
    }

    /** Backend time a model that never cancels wastes per failed request: every call's time beyond the failure. */
    static long orphanNanos(Graph graph, long failAt) {
        long sum = 0;
        for (Step s : graph.steps())
            if (s instanceof Step.Call c && c.failureProbability() < 1) sum += Math.max(0, c.latency().expectedNanos() - failAt);
        return sum;
    }

    ExperimentResult result(ExperimentSettings settings, Workload workload, Workload variants, List<FailuresRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (FailuresRow row : rows) {
            cells.add(List.of(row.model(), row.calls(), row.requests() + "", pct(row.failed(), row.requests()),
                    RunTables.ms(row.predictedFailMillis()), RunTables.ms(row.meanLatencyMillis()),
                    RunTables.ms(row.p99LatencyMillis()), RunTables.ms(row.timeToFailMillis()),
                    row.cancellationsHonoured() + "/" + row.cancellationsRequested(), row.orphanedCalls() + "",
                    RunTables.ms(row.predictedOrphanMillisPerFailed()), RunTables.ms(row.orphanMillisPerFailed()),
                    row.callsLeftRunning() + "", row.leftoverThreads() + "", row.verdict()));
        }
        Table table = new Table("failures: " + workload.description() + " (framework variants: " + variants.description() + "), "
                + workload.arrival().label() + ", " + ExperimentSettings.delays(settings.timeScale()),
                List.of("model", "calls", "requests", "failed %", "predicted fail ms", "latency mean ms", "latency p99 ms",
                        "time to fail mean ms", "cancels honoured/requested", "orphan calls", "predicted orphan ms/failed",
                        "orphan ms/failed", "calls left running", "threads left", "verdict"), cells);
        List<String> notes = List.of(
                "Every request fails (audit always fails), so failed % is 100 where the semantics hold; audit feeds nothing, "
                        + "so a model that waited only for the answer's inputs would report successes.",
                "predicted fail ms: one request alone; 'overlapped' models learn of the failure when audit fails (20 ms), "
                        + "'in step order' ones after profile, hang and audit in turn (2,320 ms), both divided by the time scale; "
                        + "under open load a bounded pool adds queueing to the latency.",
                "The framework variants (kind 'variant' in blocklab models) make only seed 002's four calls, so they run "
                        + "the same shape on those: posts and albums hang 2 s, comments fails at 20 ms, photos answers at 300 ms; "
                        + "overlapped they learn of it at 20 ms, in step order after posts and comments (2,020 ms). Pooled "
                        + "variants with 8 threads.",
                "time to fail: from the first failure inside a request (a call failing) to the request's completion; "
                        + "cancels requested: calls in flight at the request's first failure or end; honoured: those that ended by "
                        + "interrupt or cancellation; orphan calls: still running when their request had ended; orphan ms: backend "
                        + "time they spent after it (all by System.nanoTime in a FailureMeter around the backend).",
                "predicted orphan ms/failed: 0 for every registered model and variant, whose claim is that a failure cancels "
                        + "the calls still running; only " + WRONG + ", which cancels nothing by design, is predicted the backend "
                        + "time its calls spend after the failure. A measured figure above the prediction is work that ran on after a failure; "
                        + "a call may end on its own in the instant its cancel is sent, so the verdict says leaks only when more than a "
                        + "tenth of the calls that had to stop ran on, or a call was still running after the run.",
                "calls left running: calls still in flight when the last request had completed; threads left: platform threads "
                        + "alive after the model closed.",
                "verdict: cancels (nine in ten calls that had to stop were cancelled or interrupted); leaks (calls ran on after "
                        + "their request had ended, or were still running after the run); waits (they ran to their end while the "
                        + "request waited for them: no fail fast, as ExecutorService.invokeAll or a latch over every call does).",
                WRONG + " is not a registered model: the wrong way for contrast (CompletableFuture.supplyAsync, then cancel(true), "
                        + "which does not interrupt the running call); its orphans hold its 8 pool threads, so later requests queue behind them.");
        return new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(), rows, List.of(table), notes);
    }

    private static String pct(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.0f", 100.0 * part / whole);
    }

    /**
     * The wrong way, for contrast: every call {@code supplyAsync} on a pool of N, the first failure fails the request
     * and "cancels" the other calls with {@link CompletableFuture#cancel}, which does not interrupt the thread running
     * them. Only for graphs whose calls read no other step (a fan-out).
     */
    static final class UncancelledSupplyAsync implements Model {
        private final Backend backend;
        private final int threads;
        private final ExecutorService pool;

        UncancelledSupplyAsync(Backend backend, int threads) {
            this.backend = backend;
            this.threads = threads;
            this.pool = Executors.newFixedThreadPool(threads, Tasks.named("supplyasync-uncancelled"));
        }

        @Override public String name() { return "supplyasync-uncancelled:" + threads; }

        @Override public CompletableFuture<Object> submit(Request request) {
            List<Step> steps = request.graph().steps();
            Object[] values = new Object[steps.size()];
            List<CompletableFuture<Object>> calls = new ArrayList<>();
            CompletableFuture<?>[] byStep = new CompletableFuture<?>[steps.size()];
            CompletableFuture<Object> result = new CompletableFuture<>();
            for (int i = 0; i < steps.size(); i++) {
                if (!(steps.get(i) instanceof Step.Call call)) continue;
                if (!call.inputs().stream().allMatch(Graph.INPUT::equals))
                    throw new IllegalArgumentException(name() + " runs fan-outs only: call '" + call.name() + "' reads another step");
                int index = i;
                CompletableFuture<Object> f = CompletableFuture.supplyAsync(() -> Tasks.unchecked(
                        () -> backend.callBlocking(request.invocation(index, request.inputsOf(index, values)))), pool);
                f.whenComplete((v, e) -> { if (e != null) result.completeExceptionally(e); });
                calls.add(f);
                byStep[i] = f;
            }
            result.whenComplete((v, e) -> { if (e != null) calls.forEach(c -> c.cancel(true)); });   // does not interrupt
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenRun(() -> {
                try {
                    for (int i = 0; i < steps.size(); i++)
                        values[i] = byStep[i] != null ? byStep[i].join() : request.compute(i, request.inputsOf(i, values));
                    result.complete(values[values.length - 1]);
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
            return result;
        }

        @Override public Prediction predict(Demand d) {
            return new Prediction(d.criticalPathNanos(), "critical path (calls overlap on " + threads + " threads)");
        }

        @Override public void close() { Tasks.shutdown(pool); }
    }
}
