package dev.blocklab.experiment;

import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.report.RunTables;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code reproduce retries}: what retries and hedged requests buy and what they cost. One call of long-tailed
 * latency (log-normal, p50 200 ms, p99 2 s) that fails 2 % of the time and times out after 2.5 s, against a
 * backend of {@value #WORKERS} workers with a queue ({@link QueueingBackend}: a caller's timeout counts the queue
 * too, and the backend drops a call its caller gave up). Attempted once, retried ({@code retry: {attempts: 3,
 * backoff: 200ms}}) or hedged ({@code hedge: 700ms}, about the latency's p90), under open load at about 40 % of the
 * backend's capacity and at about 120 %. Rows are {@link RetriesRow}s; the calls per request predicted from the
 * draws (every attempt's delay and failure, without queueing) stand beside the measured ones. The delays are
 * long (a slow backend) so that at the quick time scale (/ 10) they stay well above a busy machine's timer noise.
 */
final class RetriesExperiment implements Experiment {
    private static final long MS = 1_000_000L;
    static final int WORKERS = 8;
    static final long P50_NANOS = 200 * MS, P99_NANOS = 2_000 * MS, TIMEOUT_NANOS = 2_500 * MS;
    static final double FAILURE_PROBABILITY = 0.02;
    static final Step.Attempts RETRY = new Step.Attempts.Retry(3, 200 * MS);
    static final Step.Attempts HEDGE = new Step.Attempts.Hedge(700 * MS);
    /** The one model: callbacks on 2 threads, no thread held by a waiting call, so the backend is the one bound. */
    static final String MODEL = "cf-nonblocking:2";

    @Override public String name() { return "retries"; }

    @Override public String description() {
        return "retries and hedged requests: tail latency bought against backend calls per request, light load and overload";
    }

    /** The call, attempted as {@code how}. */
    static Step.Call call(Step.Attempts how) {
        return new Step.Call("lookup", List.of(), new Latency.LogNormal(P50_NANOS, P99_NANOS), new Value.Constant(1L),
                FAILURE_PROBABILITY, new Step.FailureSpec("java.io.IOException", "lookup failed"), TIMEOUT_NANOS, null, how);
    }

    static Workload workload(Step.Attempts how, double ratePerSecond, long durationNanos) {
        return new Workload("lookup-" + label(how), "one lookup, p50 200 ms, p99 2 s, fails 2 %, timeout 2.5 s, " + label(how),
                new Graph(0L, List.of(call(how))), new Arrival.Open(ratePerSecond, durationNanos));
    }

    static String label(Step.Attempts how) {
        return switch (how) {
            case Step.Attempts.Once o -> "once";
            case Step.Attempts.Retry r -> "retry " + r.attempts() + "x, backoff " + r.backoffNanos() / MS + " ms";
            case Step.Attempts.Hedge h -> "hedge after " + h.afterNanos() / MS + " ms";
        };
    }

    /** The backend's capacity in calls a second: its workers over the mean time a call holds one (from the draws). */
    static double capacityPerSecond(long seed, int draws) {
        Request r = new Request(0, Graph.singleCall(call(Step.Attempts.ONCE)), seed, 1);
        double sum = 0;
        for (long id = 0; id < draws; id++) sum += new Request(id, r.graph(), seed, 1).invocation(0, List.of()).waitNanos();
        return WORKERS / (sum / draws / 1e9);
    }

    /**
     * Calls per request when nothing queues, from the draws of requests {@code 0..n-1}: a retry tries again after a
     * failure or a timeout, a hedge sends its second call when the first has not ended by its delay.
     */
    static double predictedCallsPerRequest(Step.Attempts how, long seed, long n) {
        Graph graph = Graph.singleCall(call(how));
        long calls = 0;
        for (long id = 0; id < n; id++) {
            Request r = new Request(id, graph, seed, 1);
            calls += switch (how) {
                case Step.Attempts.Once o -> 1;
                case Step.Attempts.Retry retry -> {
                    int k = 0;
                    while (k + 1 < retry.attempts() && fails(r.invocation(0, List.of(), k))) k++;
                    yield k + 1;
                }
                case Step.Attempts.Hedge hedge -> r.invocation(0, List.of(), 0).waitNanos() > hedge.afterNanos() ? 2 : 1;
            };
        }
        return (double) calls / n;
    }

    private static boolean fails(CallInvocation c) { return c.timesOut() || c.failure() != null; }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        long seed = dev.blocklab.Defaults.SEED;
        double capacity = capacityPerSecond(seed, 100_000);
        long durationNanos = (settings.full() ? 120_000 : 40_000) * MS;
        RunSettings run = new RunSettings(settings.timeScale(), 0, 1, 0, seed, 256);
        List<RetriesRow> rows = new ArrayList<>();
        // a short run first, not reported: the first run of a fresh JVM pays for class loading, compilation and
        // timer threads, which at small time scales times its first requests out
        settings.progress().update("warm-up");
        new InProcessDriver(() -> new QueueingBackend(WORKERS))
                .run(workload(Step.Attempts.ONCE, Math.round(capacity * 0.4), durationNanos / 4), MODEL, run, settings.progress());
        for (double load : List.of(0.4, 1.2)) {
            double rate = Math.round(capacity * load);
            for (Step.Attempts how : List.of(Step.Attempts.ONCE, RETRY, HEDGE)) {
                settings.progress().update(label(how) + " at " + (long) rate + "/s");
                List<QueueingBackend> backends = new CopyOnWriteArrayList<>();
                InProcessDriver driver = new InProcessDriver(() -> {
                    QueueingBackend b = new QueueingBackend(WORKERS);
                    backends.add(b);
                    return b;
                });
                Workload w = workload(how, rate, durationNanos);
                RunResult r = driver.run(w, MODEL, run, settings.progress());
                long sent = backends.stream().mapToLong(QueueingBackend::callsStarted).sum();
                long served = backends.stream().mapToLong(QueueingBackend::callsServed).sum();
                double busyMillis = backends.stream().mapToDouble(QueueingBackend::busyMillis).sum();
                long requests = Math.max(1, r.counts().requests());
                RetriesRow row = new RetriesRow(label(how), rate, rate / capacity, r.counts().requests(),
                        (double) r.counts().successes() / requests, r.counts().timeouts(),
                        r.timing().latencyMillis().p50(), r.timing().latencyMillis().p99(), r.timing().latencyMillis().p999(),
                        predictedCallsPerRequest(how, seed, r.counts().requests()), (double) sent / requests,
                        (double) served / requests, busyMillis / (WORKERS * r.timing().wallMillis()), r);
                settings.rowSink().accept(row);
                rows.add(row);
            }
        }
        return result(settings, capacity, rows);
    }

    ExperimentResult result(ExperimentSettings settings, double capacity, List<RetriesRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (RetriesRow row : rows) {
            cells.add(List.of(row.option(), String.format(Locale.ROOT, "%.0f (%.0f %%)", row.ratePerSecond(), 100 * row.loadOfCapacity()),
                    row.requests() + "", String.format(Locale.ROOT, "%.1f", 100 * row.successRatio()), row.timeouts() + "",
                    RunTables.ms(row.p50Millis()), RunTables.ms(row.p99Millis()), RunTables.ms(row.p999Millis()),
                    RunTables.num(row.predictedCallsPerRequest()), RunTables.num(row.callsPerRequest()),
                    RunTables.num(row.servedPerRequest()), String.format(Locale.ROOT, "%.0f", 100 * row.workersBusyRatio())));
        }
        Table table = new Table("retries: one lookup (p50 200 ms, p99 2 s, fails 2 %, timeout 2.5 s), " + WORKERS
                + " backend workers (capacity " + Math.round(capacity) + " calls/s), " + MODEL + ", open load, " + ExperimentSettings.delays(settings.timeScale()),
                List.of("attempts", "rate /s (of capacity)", "requests", "success %", "timeouts", "latency p50 ms",
                        "latency p99 ms", "latency p99.9 ms", "predicted calls/request", "calls/request",
                        "served/request", "workers busy %"), cells);
        List<String> notes = List.of(
                "Latency from each request's intended start (open load), after the time scale; success % and timeouts are "
                        + "the requests' outcomes.",
                "calls/request: calls sent to the backend per request (attempts, retries and hedges); served/request: those "
                        + "that reached a worker (a call given up while queued never does); workers busy %: worker time spent "
                        + "over " + WORKERS + " workers x wall time. Load amplification is calls/request over 1.",
                "predicted calls/request: from the draws alone (every attempt's delay and failure), as if nothing queued: "
                        + "a retry tries again after a failure or a timeout, a hedge sends a second call when the first has "
                        + "not answered by its delay. Under overload queueing adds timeouts (retried) and slow answers (hedged), "
                        + "so the measured figure rises above it.",
                "rate: open arrivals in requests a second before the time scale; capacity: " + WORKERS
                        + " workers over the mean time a call holds one, from 100,000 draws.");
        return new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(), rows, List.of(table), notes);
    }
}
