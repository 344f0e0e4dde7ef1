package dev.blocklab.capacity;

import dev.blocklab.attack.Attack;
import dev.blocklab.attack.AttackListener;
import dev.blocklab.result.AttackResult;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.workload.Arrival;
import dev.blocklab.attack.Target;
import dev.blocklab.backend.BackendServer;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.load.Pacer;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.recorder.ProcessMetrics;
import dev.blocklab.result.RunResult;
import dev.blocklab.server.Admission;
import dev.blocklab.server.BlocklabServer;
import dev.blocklab.server.ServerSettings;
import dev.blocklab.workload.Workload;

import java.util.List;

/**
 * How a point is measured: the in-process driver for models and variants, blocklab's own load generator
 * against a fresh server for HTTP entries. The only places that read a {@link RunResult} or an
 * {@link AttackResult} for capacity.
 */
final class Meters {
    private Meters() {}

    /** An open run of {@code stepNanos} at the rate, in real time, under the in-process driver. */
    static CapacitySearch.Meter inProcess(InProcessDriver driver, Workload workload, Entry.InProcess entry,
                                          dev.blocklab.datastore.PoolBounds pools, long stepNanos, RunSettings settings, Progress progress) {
        return phased((rate, phase) -> {
            StepCompletions step = new StepCompletions(stepNanos, System::nanoTime);
            // one run per call (settings: no warm-up, one repeat), so the driver's own "NAME run 1/1: " prefix says nothing
            String driverPrefix = entry.name() + " run 1/1: ";
            RunResult r = driver.run(workload.withArrival(new Arrival.Open(rate, stepNanos)), entry.name(),
                    context -> step.watch(pools == null ? entry.spec().create(context) : pools.wrap(entry.spec().create(context), entry.spec())), settings,
                    line -> progress.update(label(entry, rate, phase) + (line.startsWith(driverPrefix) ? line.substring(driverPrefix.length()) : line)));
            // a run cut short by a stop measured part of a step: not a point of the search
            if (r.interrupted() != null) throw new InProcessDriver.Stopped("stopped during " + entry.name() + " at " + dev.blocklab.load.Rates.number(rate) + "/s");
            return of(rate, r, step.perSecond(Math.round(r.timing().latencyMillis().min() * 1e6)));
        });
    }

    /** A meter measuring through {@code measure(rate, phase)}, its phase named in each progress line. */
    static CapacitySearch.Meter phased(java.util.function.BiFunction<Double, String, Measurement> measure) {
        return new CapacitySearch.Meter() {
            @Override public Measurement measure(double ratePerSecond) { return measure.apply(ratePerSecond, ""); }
            @Override public Measurement measure(double ratePerSecond, String phase) { return measure.apply(ratePerSecond, phase); }
        };
    }

    /** {@code fixed:8 at 10/s, run 2/3: } */
    private static String label(Entry entry, double rate, String phase) {
        return entry.name() + " at " + dev.blocklab.load.Rates.number(rate) + "/s" + (phase.isEmpty() ? "" : ", " + phase) + ": ";
    }

    /** A point of an in-process run: latency from each request's intended start; the driver paces itself. */
    static Measurement of(double rate, RunResult r, Double doneInStepPerSecond) {
        long n = Math.max(1, r.counts().requests());
        var l = r.timing().latencyMillis();
        return new Measurement(rate, r.timing().throughputPerSecond(), r.counts().requests(), r.successRatio(), l.p50(), l.p90(), l.p99(), l.p999(),
                r.resources().cpuMillis() * 1000 / n, (double) r.resources().allocatedBytes() / n, r.resources().peakPlatformThreads(), r.resources().peakRssBytes(),
                false, "", doneInStepPerSecond, r.pools());
    }

    /**
     * Counts the requests a model completes within the step, from its first submission: a steady run completes
     * {@code rate x (step - latency)} of them, one whose backlog grows only {@code capacity x (step - latency)}.
     * Completions may be counted from any thread; one instance per run.
     */
    static final class StepCompletions {
        private final long stepNanos;
        private final java.util.function.LongSupplier clock;
        private final java.util.concurrent.atomic.AtomicLong firstNanos = new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE);
        private final java.util.concurrent.atomic.AtomicLong within = new java.util.concurrent.atomic.AtomicLong();

        StepCompletions(long stepNanos, java.util.function.LongSupplier clock) {
            this.stepNanos = stepNanos;
            this.clock = clock;
        }

        /** The model, with every submission's completion counted when it falls within the step. */
        dev.blocklab.model.Model watch(dev.blocklab.model.Model model) {
            return new dev.blocklab.model.Model() {
                @Override public String name() { return model.name(); }
                @Override public java.util.concurrent.CompletableFuture<Object> submit(dev.blocklab.workload.Request request) {
                    firstNanos.compareAndSet(Long.MIN_VALUE, clock.getAsLong());
                    java.util.concurrent.CompletableFuture<Object> future = model.submit(request);
                    future.whenComplete((v, e) -> completed());
                    return future;   // the model's own future: the driver's timeouts and cancels reach it
                }
                @Override public dev.blocklab.model.Prediction predict(dev.blocklab.model.Demand demand) { return model.predict(demand); }
                @Override public void close() { model.close(); }
            };
        }

        void completed() {
            if (clock.getAsLong() - firstNanos.get() <= stepNanos) within.incrementAndGet();
        }

        /**
         * Completions within the step per second of the step after {@code fastestNanos} (the run's fastest
         * latency, before which nothing can complete); null when that leaves under a quarter of the step to judge.
         */
        Double perSecond(long fastestNanos) {
            long window = stepNanos - Math.max(0, fastestNanos);
            if (window < stepNanos / 4) return null;
            return within.get() * 1e9 / window;
        }
    }

    /**
     * A fresh blocklab server with the entry's profile, calling {@code backend} over HTTP, attacked on the entry's
     * endpoint for {@code stepNanos} after a warm-up of a quarter of that at the same rate (discarded). CPU and
     * allocation are the whole process's (server, attacker and backend share this JVM), from the measured
     * schedule's start to the attack's end.
     */
    static CapacitySearch.Meter http(BackendServer backend, Entry.Http entry, long stepNanos, long timeoutNanos, Progress progress) {
        return phased((rate, phase) -> {
            ServerSettings server = ServerSettings.of(0, entry.profile()).withBackend(backend.uri()).withLog(line -> {})
                    .withAdmission(Admission.FIXED);
            try (BlocklabServer s = BlocklabServer.start(server)) {
                AttackSettings attack = AttackSettings.of(List.of(Target.get(s.uri() + entry.endpoint())),
                        new Arrival.Open(new Pacer.Constant(rate), stepNanos)).withTimeoutNanos(timeoutNanos)
                        .withWarmupNanos(Math.max(500_000_000L, stepNanos / 4));
                ProcessMetrics.resetPeakPlatformThreads();
                var before = new java.util.concurrent.atomic.AtomicReference<>(ProcessMetrics.snapshot());
                // not the warm-up's cost, which no request of the run carries
                AttackListener measuredStart = AttackListener.atMeasuredStart(() -> before.set(ProcessMetrics.snapshot()));
                AttackResult r = new Attack(attack).run(line -> progress.update(label(entry, rate, phase) + line), measuredStart);
                ProcessMetrics.Snapshot after = ProcessMetrics.snapshot();
                return of(rate, r, after.cpuNanos() - before.get().cpuNanos(), after.allocatedBytes() - before.get().allocatedBytes(),
                        ProcessMetrics.peakPlatformThreads(), ProcessMetrics.rssBytes());
            } catch (Exception e) {
                throw new IllegalStateException(entry.name() + " at " + dev.blocklab.load.Rates.number(rate) + "/s: " + e.getMessage(), e);
            }
        });
    }

    /** A point of an attack: its instrument health decides whether the load generator was the limit. */
    static Measurement of(double rate, AttackResult r, long cpuNanos, long allocatedBytes, int peakThreads, long rssBytes) {
        long n = Math.max(1, r.requests());
        var l = r.latencyMillis();
        return new Measurement(rate, r.throughputPerSecond(), r.requests(), r.successRatio(), l.p50(), l.p90(), l.p99(), l.p999(),
                cpuNanos / 1e3 / n, (double) allocatedBytes / n, peakThreads, rssBytes,
                r.health().instrumentLimited(), r.health().verdictLine(), null);
    }
}
