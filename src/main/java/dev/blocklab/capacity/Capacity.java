package dev.blocklab.capacity;

import dev.blocklab.backend.BackendServer;
import dev.blocklab.datastore.PoolBounds;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.report.Deviation;
import dev.blocklab.experiment.ProfilePageExperiment;
import dev.blocklab.experiment.RateSearch;
import dev.blocklab.model.ArrivalPrediction;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;

/**
 * Runs the capacity search for each entry on one workload and predicts each entry's ceiling from its own
 * formula, so the measured knee stands beside theory.
 */
public final class Capacity {
    private Capacity() {}

    /**
     * @param slos      objectives, all of which must hold
     * @param rates     the rate schedule
     * @param repeats   runs per rate
     * @param stepNanos length of each run (long enough to reach steady state; a warm-up precedes each entry)
     * @param timeoutNanos a request still running after this long fails (0: never)
     * @param seed      seed of every latency draw
     */
    public record Settings(List<Slo> slos, RateSearch rates, int repeats, long stepNanos, long timeoutNanos, long seed) {
        public Settings {
            slos = List.copyOf(slos);
            if (stepNanos <= 0) throw new IllegalArgumentException("the step must be > 0");
        }

        CapacitySearch search() { return new CapacitySearch(rates, repeats, slos); }

        RunSettings runSettings() {
            return new RunSettings(1, 0, 1, timeoutNanos, seed, dev.blocklab.model.ModelContext.DEFAULT_MANAGED_SPARE_THREADS);
        }

        double p99LimitMillis() {
            return slos.stream().filter(s -> s.metric().equals("p99")).mapToDouble(Slo::limit).min().orElse(Double.POSITIVE_INFINITY);
        }
    }

    /**
     * What theory says of an entry.
     *
     * @param ceilingPerSecond the throughput its formula allows (infinite when it names no limit)
     * @param unloadedP99Millis one request's p99 with no queue
     * @param successRatio     the share of requests whose calls do not fail by design
     * @param basis            the formula in words, with its figures
     * @param connectionPool   true when a real server's connection pool sets the ceiling, below the entry's own formula
     */
    public record Predicted(double ceilingPerSecond, double unloadedP99Millis, double successRatio, String basis, boolean connectionPool) {
        /** A ceiling from the entry's own formula. */
        public Predicted(double ceilingPerSecond, double unloadedP99Millis, double successRatio, String basis) {
            this(ceilingPerSecond, unloadedP99Millis, successRatio, basis, false);
        }
    }

    /** The share of requests that succeed when no call times out: the product of every call's chance not to fail. */
    static double successByDesign(dev.blocklab.workload.Graph graph) {
        double ok = 1;
        for (var step : graph.steps()) if (step instanceof dev.blocklab.workload.Step.Call c) ok *= 1 - c.failureProbability();
        return ok;
    }

    /** One entry's search, prediction and reason for stopping. */
    public record EntryResult(String entry, CapacitySearch.Result search, Predicted predicted, String why) {}

    /**
     * One run of a search, as it is measured: the entry, the run's phase ({@code warm-up (discarded)}, {@code run
     * 2/3}) and what it measured. {@code capacity} streams each to its results file, so a search stopped midway
     * keeps every run it made.
     */
    public record Step(String entry, String phase, Measurement measurement) {}

    /** What a search tells as it goes: for a results file streamed as runs end, and for a summary when stopped. */
    public interface Listener {
        /** The search of {@code entry} begins (its warm-up run first). */
        default void started(String entry) {}

        /** One of its runs ended. */
        default void measured(Step step) {}
    }

    /**
     * Where in-process entries' calls go: the simulated backend, or real servers.
     *
     * @param supplier  a fresh backend per run; null for the simulated one
     * @param pools     the pools the requests wait on (PostgreSQL, Redis), which bound every model; null where none
     * @param described the servers and pools in words, for the report; empty for the simulated backend
     */
    public record Backends(java.util.function.Supplier<dev.blocklab.backend.Backend> supplier, PoolBounds pools, String described) {
        public static final Backends SIMULATED = new Backends(null, null, "");
    }

    /** Searches each entry in turn on the simulated backend; see {@link #run(Workload, List, Settings, Progress, Backends, Listener)}. */
    public static List<EntryResult> run(Workload workload, List<Entry> entries, Settings settings, Progress progress, Listener listener) {
        return run(workload, entries, settings, progress, Backends.SIMULATED, listener);
    }

    /** Searches each entry in turn, telling {@code listener} as each begins and as each of its runs ends. */
    public static List<EntryResult> run(Workload workload, List<Entry> entries, Settings settings, Progress progress, Backends backends,
                                        Listener listener) {
        return run(workload, entries, settings, progress, backends, driver(backends), listener);
    }

    /** The driver of in-process entries' runs, on {@code backends}. */
    public static InProcessDriver driver(Backends backends) {
        return backends.supplier() == null ? new InProcessDriver() : new InProcessDriver(backends.supplier());
    }

    /**
     * As {@link #run(Workload, List, Settings, Progress, Backends, Listener)} with the given {@code driver}: its
     * {@link InProcessDriver#stop} ends the search (Ctrl-C) with {@link InProcessDriver.Stopped}, the run it cut
     * short discarded.
     */
    public static List<EntryResult> run(Workload workload, List<Entry> entries, Settings settings, Progress progress, Backends backends,
                                        InProcessDriver driver, Listener listener) {
        List<EntryResult> results = new ArrayList<>();
        BackendServer backend = entries.stream().anyMatch(e -> e instanceof Entry.Http) ? BackendServer.start(0) : null;
        try {
            for (Entry entry : entries) {
                listener.started(entry.name());
                CapacitySearch.Meter inner = switch (entry) {
                    case Entry.InProcess p -> Meters.inProcess(driver, workload, p, backends.pools(), settings.stepNanos(), settings.runSettings(), progress);
                    case Entry.Http h -> Meters.http(backend, h, settings.stepNanos(),
                            settings.timeoutNanos() > 0 ? settings.timeoutNanos() : 10_000_000_000L, progress);
                };
                CapacitySearch.Meter meter = Meters.phased((rate, phase) -> {
                    Measurement m = inner.measure(rate, phase);
                    listener.measured(new Step(entry.name(), phase, m));
                    return m;
                });
                // one discarded run at the first rate warms the JIT, the pools and the connections
                meter.measure(settings.rates().startPerSecond(), "warm-up (discarded)");
                CapacitySearch.Result search = settings.search().run(meter);
                Predicted predicted = predict(workload, entry, settings, backends.pools());
                results.add(new EntryResult(entry.name(), search, predicted, Why.of(entry, search, predicted, settings)));
            }
        } finally {
            if (backend != null) backend.close();
        }
        return results;
    }

    /** The entry's ceiling from its own formula: {@code n} requests over its prediction for a batch of {@code n}. */
    static Predicted predict(Workload workload, Entry entry, Settings settings) { return predict(workload, entry, settings, null); }

    /**
     * As {@link #predict(Workload, Entry, Settings)}, bound by the connection pools the requests wait on (a real
     * server's): a pool's connections over the time a request holds one, when that is lower than the model's own.
     */
    static Predicted predict(Workload workload, Entry entry, Settings settings, PoolBounds pools) {
        Predicted own = predictOwn(workload, entry, settings);
        if (pools == null || !(entry instanceof Entry.InProcess p)) return own;
        var tightest = pools.tightest(p.spec());
        if (tightest.isEmpty() || !(tightest.get().pool().maxRequestsPerSecond() < own.ceilingPerSecond())) return own;
        return new Predicted(tightest.get().pool().maxRequestsPerSecond(), own.unloadedP99Millis(), own.successRatio(),
                "the " + PoolBounds.basis(tightest.get()) + (Double.isInfinite(own.ceilingPerSecond()) ? " (its own formula names no limit)"
                        : " (its own formula: " + ceiling(own.ceilingPerSecond()) + ")"), true);
    }

    /** The entry's ceiling from its own formula alone, no pool of a real server considered. */
    private static Predicted predictOwn(Workload workload, Entry entry, Settings settings) {
        return switch (entry) {
            case Entry.InProcess p -> {
                long n = 100_000;   // long enough that a limit, not the slowest of the drawn latencies, sets the time
                RunSettings rs = settings.runSettings();
                Prediction batch = InProcessDriver.predict(workload.withArrival(new Arrival.Batch((int) n)), p.spec(), rs);
                Prediction one = InProcessDriver.predict(workload.withArrival(new Arrival.Batch(1)), p.spec(), rs);
                Prediction twice = InProcessDriver.predict(workload.withArrival(new Arrival.Batch((int) (2 * n))), p.spec(), rs);
                double ceiling = ArrivalPrediction.capacityPerSecond(n, batch);
                double p99 = one.millis();
                RequestTimes drawn = RequestTimes.forPrediction(workload.graph(), settings.seed(), 1, 4096, p.spec().failsFast());
                if (drawn != null && one.path() != null) {
                    // one request's own time on its path, plus what its formula adds beyond the path (its CPU)
                    double extra = Math.max(0, one.nanos() - drawn.on(one.path())[0]);
                    p99 = (drawn.percentileNanos(one.path(), 99) + extra) / 1e6;
                }
                // a limit makes twice the requests take about twice as long; without one, a batch takes its slowest
                // request, which grows only slowly with the batch where latencies are drawn at random (10,000 over the
                // slowest of 10,000 draws is no ceiling: it moved with the batch's size)
                boolean bounded = twice.nanos() > batch.nanos() * 1.5;
                yield new Predicted(bounded ? ceiling : Double.POSITIVE_INFINITY, p99, successByDesign(workload.graph()), bounded
                        ? String.format(Locale.ROOT, "a long batch (%,d requests, a model of steady load) takes %s by its formula (%s) = %s/s", n, Durations.readable(batch.nanos()), batch.basis(), dev.blocklab.load.Rates.number(ceiling))
                        : "its formula names no throughput limit (one request alone: " + one.basis().replaceFirst("^one request alone: ", "") + ")");
            }
            case Entry.Http h -> http(h);
        };
    }

    /** A server profile's ceiling: the threads an endpoint holds over how long it holds them. */
    static Predicted http(Entry.Http h) {
        ProfilePageExperiment.Demand d = ProfilePageExperiment.demand(h.endpoint(), h.profile(), ForkJoinPool.getCommonPoolParallelism(), 1);
        long held = d.jobNanos().stream().mapToLong(Long::longValue).sum();
        double unloadedP99 = (h.endpoint().equals("/async-non-blocking") || h.endpoint().equals("/async-blocking")
                ? d.jobNanos().stream().mapToLong(Long::longValue).max().orElse(0) : held) / 1e6;
        if (h.profile().onEventLoop() && h.endpoint().equals("/sync-blocking")) {
            int loops = d.threads();   // the profile's event loops, each held while a handler blocks
            double ceiling = loops * 1e9 / held;
            return new Predicted(ceiling, held / 1e6, 1, String.format(Locale.ROOT,
                    "the event loop is blocked: %d event loops each held %s per request = %s/s", loops, Durations.readable(held), dev.blocklab.load.Rates.number(ceiling)));
        }
        if (d.threads() == Integer.MAX_VALUE)
            return new Predicted(Double.POSITIVE_INFINITY, unloadedP99, 1, "no thread held while waiting (" + d.pool() + "): no pool limit; CPU decides");
        double ceiling = d.threads() * 1e9 / held;
        return new Predicted(ceiling, unloadedP99, 1, String.format(Locale.ROOT, "a pool of %,d %s (%s) holding each request %s = %s/s",
                d.threads(), d.threads() == 1 ? "thread" : "threads", d.pool(), Durations.readable(held), dev.blocklab.load.Rates.number(ceiling)));
    }

    /** A predicted ceiling in words: {@code 80/s}, or {@code no limit} where the formula names none. */
    static String ceiling(double rate) { return Double.isInfinite(rate) ? "no limit" : dev.blocklab.load.Rates.number(rate) + "/s"; }

    /** The sentence saying why an entry stops where it does, backed by the measurement that shows it. */
    static final class Why {
        private Why() {}

        static String of(Entry entry, CapacitySearch.Result search, Predicted predicted, Settings settings) {
            return reason(entry, search, predicted, settings) + aboveCeiling(search, predicted, settings);
        }

        /**
         * A caution when the entry held a rate well above its formula's ceiling: a step too short for the queue the
         * excess builds to break an objective (a pool of 8 holding each request 1 s, offered 15/s for 1 s, queues only
         * 7 requests, 0.9 s of waiting) passes a rate it cannot keep.
         */
        static String aboveCeiling(CapacitySearch.Result search, Predicted predicted, Settings settings) {
            double ceiling = predicted.ceilingPerSecond();
            if (Double.isInfinite(ceiling) || !(search.sustainablePerSecond() > 1.25 * ceiling)) return "";
            return String.format(Locale.ROOT, " (it held %s/s, above its predicted ceiling of %s/s: a queue may not build far enough within "
                    + "one %s step to break an objective; measure again with a longer --step)", dev.blocklab.load.Rates.number(search.sustainablePerSecond()), dev.blocklab.load.Rates.number(ceiling),
                    Durations.readable(settings.stepNanos()));
        }

        private static String reason(Entry entry, CapacitySearch.Result search, Predicted predicted, Settings settings) {
            int cores = Runtime.getRuntime().availableProcessors();
            if (search.brokenPerSecond() == 0) return "it met every objective up to the search's ceiling; raise --max-rate to find its limit";
            if (search.instrumentLimited()) return search.stopReason();   // names the load generator or the busy machine, not the entry
            Measurement broken = search.atBroken().map(Point::median).orElseThrow();
            double cpuCores = broken.cpuMicrosPerRequest() * broken.throughputPerSecond() / 1e6;
            double successLimit = settings.slos().stream().filter(x -> x.metric().equals("success")).mapToDouble(Slo::limit).max().orElse(0);
            if (predicted.successRatio() < successLimit)
                return String.format(Locale.ROOT, "its own calls fail by design: %.2f %% of requests can succeed, under the objective's %.2f %% "
                                + "(measured %.2f %% at %s/s); the objective breaks once enough requests are sent to show it",
                        predicted.successRatio() * 100, successLimit * 100, broken.successRatio() * 100, dev.blocklab.load.Rates.number(broken.offeredPerSecond()));
            if (predicted.unloadedP99Millis() > settings.p99LimitMillis())
                return String.format(Locale.ROOT, "one request alone already takes p99 %,.0f ms, over the objective's %,.0f ms", predicted.unloadedP99Millis(),
                        settings.p99LimitMillis());
            if (cpuCores >= 0.7 * cores) {
                double cpuCeiling = cores * 1e6 / broken.cpuMicrosPerRequest();
                return String.format(Locale.ROOT, "CPU: %,.0f us per request on %d cores caps it at %d / %,.0f us = %s/s (measured at %s/s: %.1f cores busy)",
                        broken.cpuMicrosPerRequest(), cores, cores, broken.cpuMicrosPerRequest(), dev.blocklab.load.Rates.number(cpuCeiling), dev.blocklab.load.Rates.number(broken.offeredPerSecond()), cpuCores);
            }
            // the ceiling explains the break when it lies between the rates: not far above the rate that broke, and not far
            // below the rate held (a coarse search, --bisections 0, breaks at twice a ceiling it held exactly)
            double ceiling = predicted.ceilingPerSecond();
            double broke = broken.offeredPerSecond();
            if (!Double.isInfinite(ceiling) && ceiling <= broke / 0.6 && ceiling >= Math.min(broke / 1.6, 0.8 * search.sustainablePerSecond())) {
                // the model's own threads, unless a connection pool binds first (its basis names that pool)
                String pool = entry instanceof Entry.InProcess p && Deviation.poolSize(p.name()) > 0 && !predicted.connectionPool() ? "its pool: " : "";
                return pool + predicted.basis() + "; it broke at " + dev.blocklab.load.Rates.number(broken.offeredPerSecond()) + "/s (" + search.stopReason().replaceFirst("^at [^:]+: ", "") + ")";
            }
            return "the objective broke " + search.stopReason() + "; neither its formula's ceiling (" + ceiling(predicted.ceilingPerSecond())
                    + ") nor CPU (" + String.format(Locale.ROOT, "%.1f of %d cores", cpuCores, cores) + ") explains it";
        }
    }
}
