package dev.blocklab.driver;

import dev.blocklab.audit.Auditor;
import dev.blocklab.audit.RunWindow;
import dev.blocklab.backend.Backend;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.load.SendLoop;
import dev.blocklab.model.ArrivalPrediction;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.ModelContext;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.model.Prediction;
import dev.blocklab.recorder.FailureMeter;
import dev.blocklab.recorder.ProcessMetrics;
import dev.blocklab.registry.Registry;
import dev.blocklab.recorder.ResourceSampler;
import dev.blocklab.recorder.RunRecorder;
import dev.blocklab.result.FailureScore;
import dev.blocklab.result.ArrivalKind;
import dev.blocklab.result.Counts;
import dev.blocklab.result.FirstFailure;
import dev.blocklab.result.Interruption;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.Outcome;
import dev.blocklab.result.Repeats;
import dev.blocklab.result.Resources;
import dev.blocklab.result.RunPrediction;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Timing;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.RequestTimes;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a workload's arrival against one model in this process and measures it.
 *
 * <p>Each run gets a fresh backend and a fresh model, closed at the end of the run; platform threads that the
 * run started and that outlive the close are counted as {@code leftoverThreads}. Latency counts from each
 * request's intended start: the batch's start, the open schedule's due time, or the closed-loop user's submit.
 * Every run (warm-ups included) starts with {@code System.gc()}, so the garbage of one run does not pause the next.
 *
 * <p>{@link #stop} (from a Ctrl-C's shutdown hook) ends the run in progress early: it stops sending, waits up to
 * {@link #STOP_GRACE_NANOS} for the requests in flight, and returns what completed by then, marked
 * {@link RunResult#interrupted()}.
 */
public final class InProcessDriver {
    /** How long a stopped run waits for the requests in flight before it counts what completed. */
    public static final long STOP_GRACE_NANOS = 1_000_000_000L;

    private final Supplier<Backend> backends;
    private volatile boolean stopRequested;
    private volatile long stopAskedNanos;   // written before stopRequested
    private final SendLoop.Stop stop = new SendLoop.Stop() {
        @Override public boolean requested() { return stopRequested; }
        @Override public long askedAtNanos() { return stopAskedNanos; }
    };

    public InProcessDriver() { this(SimulatedBackend::new); }

    /** @param backends makes a fresh backend for every run */
    public InProcessDriver(Supplier<Backend> backends) { this.backends = backends; }

    /**
     * Asks the run in progress, and any later one, to stop: a measured run stopped partway returns what completed,
     * marked interrupted; one stopped before any measured run ended throws {@link Stopped}. Idempotent; any thread.
     */
    public void stop() {
        if (!stopRequested) {
            stopAskedNanos = System.nanoTime();
            stopRequested = true;
        }
    }

    /** True once {@link #stop} was called. */
    public boolean stopRequested() { return stopRequested; }

    /** Thrown by a run stopped before it measured anything: in a warm-up, or before any request completed. */
    public static final class Stopped extends RuntimeException {
        public Stopped(String message) { super(message, null, false, false); }
    }

    /**
     * Runs warm-ups, then repeats, and returns the run of median wall time with the range of all. Stopped partway
     * ({@link #stop}), it returns the median of the repeats that ended, or the stopped one when none did.
     */
    public RunResult run(Workload workload, String modelSpec, RunSettings settings, Progress progress) {
        return run(workload, Registry.parse(modelSpec), settings, progress);
    }

    /** As {@link #run(Workload, String, RunSettings, Progress)} for a name already parsed (and checked against the workload). */
    public RunResult run(Workload workload, ModelSpec model, RunSettings settings, Progress progress) {
        return run(workload, model.check(workload).text(), model::create, settings, progress);
    }

    /**
     * As {@link #run(Workload, String, RunSettings, Progress)} for a model that is not in the registry, such as
     * an experiment's own variant.
     */
    public RunResult run(Workload workload, String modelName, Function<ModelContext, Model> models,
                         RunSettings settings, Progress progress) {
        // under --audit, blocking seen during these runs is attributed to this model (no-op otherwise)
        return Auditor.attribute(modelName, () -> repeat(workload, modelName, models, settings, progress));
    }

    private RunResult repeat(Workload workload, String modelSpec, Function<ModelContext, Model> models,
                             RunSettings settings, Progress progress) {
        int total = settings.warmups() + settings.repeats();
        List<RunResult> measured = new ArrayList<>();
        for (int i = 0; i < total && !(stopRequested && !measured.isEmpty()); i++) {
            boolean warmup = i < settings.warmups();
            String phase = warmup ? "warm-up " + (i + 1) + "/" + settings.warmups()
                    : "run " + (i - settings.warmups() + 1) + "/" + settings.repeats();
            Progress runProgress = line -> progress.update(modelSpec + " " + phase + ": " + line);
            // under --audit a warm-up's blockings get a row of their own, so the model's row counts its measured runs
            RunResult r = warmup
                    ? Auditor.attribute(RunWindow.warmUp(modelSpec), () -> runOnce(workload, modelSpec, models, settings, runProgress))
                    : runOnce(workload, modelSpec, models, settings, runProgress);
            if (r.interrupted() != null) {
                if (warmup) throw new Stopped("stopped during " + modelSpec + "'s " + phase + "; nothing of it was measured");
                if (!measured.isEmpty()) break;   // the repeats that ended are a whole measurement; this one is not
                if (r.counts().requests() == 0)
                    throw new Stopped("stopped during " + modelSpec + "'s " + phase + " before any request completed");
                return r;
            }
            if (!warmup) measured.add(r);
        }
        if (measured.isEmpty()) throw new Stopped("stopped before " + modelSpec + " ran");
        measured.sort(Comparator.comparingDouble(r -> r.timing().wallMillis()));
        RunResult median = measured.get((measured.size() - 1) / 2);
        return median.withRepeats(Repeats.of(measured.stream().map(r -> r.timing().wallMillis()).toList()));
    }

    /** One measured run. */
    public RunResult runOnce(Workload workload, String modelSpec, Function<ModelContext, Model> models,
                             RunSettings settings, Progress progress) {
        Graph graph = workload.graph();
        long cpuNanosPerRequest = cpuNanosPerRequest(graph);
        // Start every run on a collected heap, so the garbage of the run before does not pause this one.
        System.gc();
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        RunRecorder recorder = new RunRecorder();
        ProcessMetrics.resetPeakPlatformThreads();
        ResourceSampler sampler = new ResourceSampler(10);
        ScheduledExecutorService timeouts = settings.requestTimeoutNanos() > 0 ? timeoutScheduler() : null;
        ProcessMetrics.Snapshot built = ProcessMetrics.snapshot();   // threads started count from here: a pool's own
        ProcessMetrics.Snapshot start;   // CPU, context switches and allocation count from the first send to the last completion
        ProcessMetrics.Snapshot end;
        long startNanos;
        long endNanos;
        Prediction prediction;
        boolean failsFast;
        FailureScore failureScore = FailureScore.NOT_MEASURED;
        long backendCalls;
        Interruption interruption = null;   // set when the run was stopped before its end
        List<dev.blocklab.result.PoolStats> pools;   // a real server's connection pools, read before the backend closes
        try (Backend backend = watched(backends.get(), graph, settings);
             Model model = models.apply(new ModelContext(backend, settings.spareThreads()))) {
            failsFast = model.failsFast();
            prediction = byDeadline(predict(model::predict, failsFast, workload, settings, cpuNanosPerRequest), settings);
            FailureMeter meter = backend instanceof FailureMeter m ? m : null;
            Runner runner = new Runner(model, graph, settings, recorder, timeouts, progress, stop);
            runner.meter = meter;
            long callsBefore = backend.callsStarted();   // a fresh backend per run; a real server's pool filling is not a call
            start = ProcessMetrics.snapshot();
            startNanos = System.nanoTime();
            switch (workload.arrival()) {
                case Arrival.Batch b -> runner.batch(b.requests(), startNanos);
                case Arrival.Open o -> runner.open(openLoop(o, settings.timeScaleDivisor(), System::nanoTime, InProcessDriver::sleep, stop), startNanos);
                case Arrival.Closed c -> runner.closed(c.users(), c.durationNanos() / settings.timeScaleDivisor(), startNanos);
            }
            // wall time ends at the last completion, not when this thread noticed it: a model that runs a request
            // on the caller (blocking joins) completed it before the progress line and the wake-up that follow
            endNanos = runner.lastCompletionNanos(System.nanoTime());
            end = ProcessMetrics.snapshot();   // not the failure meter's wait for stragglers, nor closing the model
            if (meter != null) failureScore = meter.score(meter.awaitQuiet(FailureMeter.QUIET_GRACE_NANOS));
            backendCalls = backend.callsStarted() - callsBefore;
            pools = backend.poolStats();
            if (runner.cut) interruption = new Interruption(runner.sent(), switch (workload.arrival()) {
                case Arrival.Batch b -> b.requests();
                case Arrival.Open o -> openLoop(o, settings.timeScaleDivisor(), System::nanoTime, InProcessDriver::sleep, stop).requests();
                case Arrival.Closed c -> 0;
            });
        } finally {
            if (timeouts != null) timeouts.shutdownNow();
            sampler.close();
        }
        int peakPlatform = ProcessMetrics.peakPlatformThreads();
        // a stopped run's process is shutting down, with threads of its own (the signal's, the hooks'): not counted,
        // nor when the stop came during the wait for them
        int leftover = stopRequested ? 0 : leftoverThreads(before);
        if (stopRequested) leftover = 0;

        Histogram histogram = recorder.histogram();
        double wallMillis = (endNanos - startNanos) / 1e6;
        // one reading of each count, so they add up even if a straggler completes while they are read
        long successes = recorder.successes(), failures = recorder.failures(), timedOut = recorder.timeouts(), cancelled = recorder.cancelled();
        Counts counts = new Counts(successes + failures + timedOut + cancelled, successes, failures, timedOut, cancelled, recorder.causes());
        long completed = counts.requests();
        ArrivalKind kind = switch (workload.arrival()) {
            case Arrival.Batch b -> ArrivalKind.BATCH;
            case Arrival.Open o -> ArrivalKind.OPEN;
            case Arrival.Closed c -> ArrivalKind.CLOSED;
        };
        return new RunResult(modelSpec, workload.name(), workload.arrival().label(), kind, settings.timeScaleDivisor(),
                recorder.firstAnswer(),
                counts,
                new Timing(wallMillis, completed / Math.max(1e-9, wallMillis / 1e3), LatencyMillis.of(histogram), encode(histogram)),
                Repeats.once(wallMillis),
                new RunPrediction(graph.criticalPathNanos(settings.timeScaleDivisor()) / 1e6, prediction.millis(), prediction.basis(),
                        failsFast && RequestTimes.mayFail(graph)),
                new Resources(peakPlatform, sampler.peakOsThreads(), end.threadsStarted() - built.threadsStarted(), leftover,
                        (end.cpuNanos() - start.cpuNanos()) / 1e6, end.contextSwitches().minus(start.contextSwitches()),
                        end.allocatedBytes() - start.allocatedBytes(), sampler.peakRssBytes()),
                FirstFailure.of(recorder.firstFailure()), failureScore, backendCalls, interruption, pools);
    }

    /** The backend behind a {@link FailureMeter} when the run can fail, so its failures are scored. */
    private static Backend watched(Backend backend, Graph graph, RunSettings settings) {
        return FailureMeter.canFail(graph, settings.requestTimeoutNanos()) ? new FailureMeter(backend, System::nanoTime) : backend;
    }

    /**
     * What theory predicts for this workload under this model, without running it: the entry's own formula, so no
     * instance is made and no thread started.
     */
    public static Prediction predict(Workload workload, ModelSpec model, RunSettings settings) {
        return predict(d -> model.predict(d, settings.spareThreads()), model.failsFast(), workload, settings,
                cpuNanosPerRequest(workload.graph()));
    }

    /**
     * As {@link #predict(Workload, ModelSpec, RunSettings)} for a model's formula alone (no instance made), of a model
     * that fails fast or not ({@link Model#failsFast}).
     */
    public static Prediction predictFromFormula(Workload workload, Function<Demand, Prediction> formula, boolean failsFast,
                                                RunSettings settings) {
        return predict(formula, failsFast, workload, settings, cpuNanosPerRequest(workload.graph()));
    }

    /** As {@link #predict(Workload, ModelSpec, RunSettings)} for a model that is not in the registry: made, asked, closed. */
    public Prediction predict(Workload workload, Function<ModelContext, Model> models, RunSettings settings) {
        try (Backend backend = backends.get(); Model model = models.apply(new ModelContext(backend, settings.spareThreads()))) {
            return predict(model::predict, model.failsFast(), workload, settings, cpuNanosPerRequest(workload.graph()));
        }
    }

    /**
     * The prediction of a run under {@code --timeout}: every request ends by its deadline, counted from its intended
     * start, so a batch's wall time and a stream's mean latency are at most the timeout (a hanging call under a
     * 500 ms timeout was predicted 20 s for a run of 500 ms).
     */
    public static Prediction byDeadline(Prediction p, RunSettings settings) {
        long timeout = settings.requestTimeoutNanos() / settings.timeScaleDivisor();
        if (timeout <= 0 || p.nanos() <= timeout) return p;
        return new Prediction(timeout, p.basis() + "; at most the request timeout " + Durations.format(timeout)
                + " (--timeout): every request ends by its deadline, counted from its intended start", p.path(), p.requeues());
    }

    /** A formula's text with the CPU its figure includes, when the workload has CPU steps. */
    private static Prediction withCpu(Prediction p, long cpuNanosPerRequest) {
        if (cpuNanosPerRequest <= 0) return p;
        return p.withBasis(p.basis() + "; with CPU steps of " + Durations.format(cpuNanosPerRequest)
                + " a request (measured here), spread over min(threads, cores) and at least one request's");
    }

    /** Requests drawn to estimate a stream's (open or closed) mean and percentiles when its latencies are random. */
    static final int STREAM_SAMPLE = 4096;

    /**
     * The model's prediction for this workload: for a batch, the batch's wall time over the requests' drawn
     * times; for open and closed arrivals, the mean latency that theory gives for the stream (see
     * {@link ArrivalPrediction}), with the model's capacity from its own formula for a large batch. The times end
     * at each request's first failure for a model that fails fast ({@code failsFast}, {@link Model#failsFast}).
     */
    static Prediction predict(Function<Demand, Prediction> model, boolean failsFast, Workload workload, RunSettings settings,
                              long cpuNanosPerRequest) {
        Graph graph = workload.graph();
        int cores = Runtime.getRuntime().availableProcessors();
        long divisor = settings.timeScaleDivisor();
        if (workload.arrival() instanceof Arrival.Batch b) {
            RequestTimes drawn = RequestTimes.forPrediction(graph, settings.seed(), divisor, b.requests(), failsFast);
            Prediction batch = model.apply(Demand.of(graph, b.requests(), divisor, cpuNanosPerRequest, cores, drawn));
            return withFailures(withCpu(batch, cpuNanosPerRequest), graph, failsFast);
        }
        long streamRequests = switch (workload.arrival()) {
            case Arrival.Open o -> o.requests();
            case Arrival.Closed c -> c.users();
            case Arrival.Batch b -> b.requests();
        };
        // a stream's mean and percentiles are those of its distribution, not of as many draws as it has users
        RequestTimes sample = RequestTimes.forPrediction(graph, settings.seed(), divisor, STREAM_SAMPLE, failsFast);
        Prediction one = withFailures(withCpu(model.apply(Demand.of(graph, 1, divisor, cpuNanosPerRequest, cores, sample)),
                cpuNanosPerRequest), graph, failsFast);
        long n = Math.max(10_000, streamRequests);
        // the capacity from the sample's mean where times are drawn: a retried call's attempts, a hedge's faster answer
        Prediction batch = model.apply(Demand.of(graph, n, divisor, cpuNanosPerRequest, cores, sample));
        return ArrivalPrediction.of(one, ArrivalPrediction.capacityPerSecond(n, batch), workload.arrival(), divisor,
                sample, cpuNanosPerRequest);
    }

    /** A formula's text with how its times count a failed call, when a call of the workload may fail. */
    private static Prediction withFailures(Prediction p, Graph graph, boolean failsFast) {
        if (!RequestTimes.mayFail(graph)) return p;
        return p.withBasis(p.basis() + (failsFast
                ? "; each request's time ends at its first failure (the model fails fast)"
                : "; a failed call's request waits for every call it started (the model does not fail fast)"));
    }

    /** Sends requests and records their outcomes; one instance per run. */
    private static final class Runner {
        private final Model model;
        private final Graph graph;
        private final RunSettings settings;
        private final RunRecorder recorder;
        private final ScheduledExecutorService timeouts;
        private final Progress progress;
        private final SendLoop.Stop stop;
        private final AtomicLong nextId = new AtomicLong();
        /**
         * Set when a stop ended the run early: sending stopped, and the requests still in flight after the grace
         * are not counted (closing the model cancels them; they did not complete).
         */
        volatile boolean cut;
        private long lastProgressNanos = System.nanoTime();
        /** Scores failures when the run can fail, else null. */
        FailureMeter meter;

        Runner(Model model, Graph graph, RunSettings settings, RunRecorder recorder,
               ScheduledExecutorService timeouts, Progress progress, SendLoop.Stop stop) {
            this.stop = stop;
            this.model = model;
            this.graph = graph;
            this.settings = settings;
            this.recorder = recorder;
            this.timeouts = timeouts;
            this.progress = progress;
        }

        void batch(int requests, long startNanos) {
            CountDownLatch done = new CountDownLatch(requests);
            BiConsumer<Object, Throwable> completion = completion(startNanos, done::countDown);   // one for the whole batch
            int i = 0;
            for (; i < requests && !stop.requested(); i++) {
                fire(startNanos, completion);
                if ((i & 1023) == 0) maybeReport(requests);   // reads the clock; once a request cost 2 % at a million
            }
            if (i < requests) cut = true;
            for (; i < requests; i++) done.countDown();   // none unless stopped
            await(done, requests);
        }

        void open(SendLoop loop, long startNanos) {
            long requests = loop.requests();
            CountDownLatch done = new CountDownLatch(Math.toIntExact(requests));
            Runnable countDown = done::countDown;
            SendLoop.Outcome sent = loop.run(startNanos, (index, intendedNanos, sentNanos) -> {
                fire(intendedNanos, completion(intendedNanos, countDown));
                maybeReport(requests);
            });
            if (sent.sent() < requests) cut = true;
            for (long i = sent.sent(); i < requests; i++) done.countDown();   // none unless stopped
            await(done, requests);
        }

        void closed(int users, long durationNanos, long startNanos) {
            long end = startNanos + durationNanos;
            var executor = Executors.newVirtualThreadPerTaskExecutor();
            try {
                for (int u = 0; u < users; u++) {
                    executor.submit(() -> {
                        while (System.nanoTime() < end && !stop.requested()) {
                            try {
                                long now = System.nanoTime();
                                send(now, completion(now, () -> {})).join();
                            } catch (RuntimeException ignored) {
                                // recorded by send
                            }
                        }
                    });
                }
                while (System.nanoTime() < end && !stop.requested()) {
                    LockSupport.parkNanos(Math.min(250_000_000L, end - System.nanoTime()));
                    progress.update(recorder.completed() + " done, " + users + " users");
                }
                executor.shutdown();
                if (stop.requested()) {
                    cut = true;   // the users stop after their request; one still waiting after the grace is not counted
                    if (!executor.awaitTermination(graceLeftNanos(), TimeUnit.NANOSECONDS)) executor.shutdownNow();
                } else {
                    while (!executor.awaitTermination(250, TimeUnit.MILLISECONDS)) {
                        if (stop.requested()) {   // during the last requests: they get the grace, as any stopped run's
                            cut = true;
                            if (!executor.awaitTermination(graceLeftNanos(), TimeUnit.NANOSECONDS)) executor.shutdownNow();
                            break;
                        }
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for users", e);
            }
        }

        /** Requests submitted so far. */
        long sent() { return nextId.get(); }

        /** What is left of the stop's grace for the requests in flight, in nanoseconds; 0 once it has passed. */
        private long graceLeftNanos() {
            return Math.max(0, stop.askedAtNanos() + STOP_GRACE_NANOS - System.nanoTime());
        }

        /**
         * Submits one request whose future no one needs; {@code completion} records its outcome. With no timeout
         * or failure meter to watch a future, it goes through the model's callback form, which a model may serve
         * without a dependent stage per request.
         */
        private void fire(long intendedNanos, BiConsumer<Object, Throwable> completion) {
            if (timeouts != null || meter != null) {
                send(intendedNanos, completion);
                return;
            }
            Request request = nextRequest();
            try {
                model.submit(request, completion);
            } catch (RuntimeException e) {
                completion.accept(null, e);
            }
        }

        /** The run's next request, numbered in the order of submission. */
        private Request nextRequest() {
            return new Request(nextId.getAndIncrement(), graph, settings.seed(), settings.timeScaleDivisor());
        }

        /**
         * Submits one request meant to start at {@code intendedNanos}; {@code completion} records its outcome. Its
         * deadline counts from that instant, as its latency does: a request that waited behind others to be
         * submitted (a model that runs requests on the caller, one after another) has used that time too, and one
         * whose deadline passed before it was submitted is never started.
         */
        private CompletableFuture<Object> send(long intendedNanos, BiConsumer<Object, Throwable> completion) {
            Request request = nextRequest();
            CompletableFuture<Object> future;
            long timeout = timeouts == null ? 0 : settings.requestTimeoutNanos() / settings.timeScaleDivisor();
            long left = timeout == 0 ? 0 : intendedNanos + timeout - System.nanoTime();
            if (timeout > 0 && left <= 0) {   // the same cause as any request cut at its deadline, counted with them
                future = CompletableFuture.failedFuture(new TimeoutException("request timed out after " + Durations.format(timeout)));
            } else {
                if (timeout > 0) request = request.withDeadlineAtNanos(intendedNanos + timeout);   // a backend is told what is left
                // a model that runs the request on the caller (sequential) is held to the timeout by an interrupt
                CallerInterrupt interrupt = timeouts == null ? null : new CallerInterrupt(Thread.currentThread());
                var interrupter = interrupt == null ? null : timeouts.schedule(interrupt::fire, left, TimeUnit.NANOSECONDS);
                try {
                    future = model.submit(request);
                } catch (RuntimeException e) {
                    future = CompletableFuture.failedFuture(e);
                } finally {
                    if (interrupter != null) interrupter.cancel(false);
                }
                if (interrupt != null && interrupt.disarm()) {
                    // submit outlived the deadline: the request has timed out. A future the model still holds open
                    // is failed, not dropped, so the model stops what the request started (its calls, its timers).
                    var timedOut = new TimeoutException("request timed out after " + Durations.format(timeout));
                    if (!future.completeExceptionally(timedOut)) future = CompletableFuture.failedFuture(timedOut);
                }
                if (timeouts != null && !future.isDone()) {
                    CompletableFuture<Object> f = future;
                    var pending = timeouts.schedule(() -> f.completeExceptionally(new TimeoutException(
                            "request timed out after " + Durations.format(timeout))), request.deadlineAtNanos() - System.nanoTime(), TimeUnit.NANOSECONDS);
                    f.whenComplete((v, e) -> pending.cancel(false));
                }
            }
            if (meter != null) future = meter.watch(request.id(), future);   // recorded by the meter before it counts as done
            return future.whenComplete(completion);
        }

        /**
         * Records the outcome of a request that was meant to start at {@code intendedNanos}, then runs
         * {@code onDone}. Stateless: a batch shares one for all its requests.
         */
        private BiConsumer<Object, Throwable> completion(long intendedNanos, Runnable onDone) {
            return (v, e) -> {
                try {
                    if (cut && stop.requested() && graceLeftNanos() == 0) return;   // after the stop's grace: not counted
                    long now = System.nanoTime();
                    long latencyNanos = now - intendedNanos;
                    if (e == null) recorder.recordSuccess(now, latencyNanos, v);
                    else recorder.record(now, latencyNanos, Outcome.of(v, e));
                } finally {
                    onDone.run();   // a batch's latch must open even if recording failed
                }
            };
        }

        /** When the last request completed, or {@code orElse} when none did. */
        long lastCompletionNanos(long orElse) {
            return recorder.lastEndNanos(orElse);
        }

        private void maybeReport(long total) {
            long now = System.nanoTime();
            if (now - lastProgressNanos > 250_000_000L) {
                lastProgressNanos = now;
                progress.update(nextId.get() + "/" + total + " sent, " + recorder.completed() + " done");
            }
        }

        private void await(CountDownLatch done, long total) {
            try {
                while (!done.await(stop.requested() ? Math.min(graceLeftNanos(), 250_000_000L) : 250_000_000L, TimeUnit.NANOSECONDS)) {
                    if (stop.requested() && graceLeftNanos() == 0) {
                        cut = true;   // what is still in flight is not waited for, nor counted
                        return;
                    }
                    progress.update(total + "/" + total + " sent, " + recorder.completed() + " done");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for requests", e);
            }
        }

    }

    /**
     * The send loop of an open arrival at a time scale: every due time divided by {@code timeScaleDivisor}, every
     * request sent however late (the run measures how long the model takes to serve them all).
     */
    static SendLoop openLoop(Arrival.Open arrival, long timeScaleDivisor, SendLoop.NanoClock clock, SendLoop.Sleeper sleeper) {
        return openLoop(arrival, timeScaleDivisor, clock, sleeper, () -> false);
    }

    private static SendLoop openLoop(Arrival.Open arrival, long timeScaleDivisor, SendLoop.NanoClock clock, SendLoop.Sleeper sleeper,
                                     SendLoop.Stop stop) {
        return new SendLoop(arrival.pacer().scaledDown(timeScaleDivisor), Math.max(1, arrival.durationNanos() / timeScaleDivisor),
                0, clock, sleeper, stop).withoutOverrun();
    }

    /** Parks until about 50 us before the time asked, then spins: at a time scale of 100 gaps are microseconds. */
    private static void sleep(long nanos) {
        if (nanos > 100_000) LockSupport.parkNanos(nanos - 50_000);
        else Thread.onSpinWait();
    }

    /** CPU time of one request's CPU steps on this machine, measured on the calling thread (best of 3). */
    static long cpuNanosPerRequest(Graph graph) {
        if (graph.cpuStepCount() == 0) return 0;
        Request probe = new Request(0, graph, 0, 1);
        long best = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < graph.steps().size(); i++) {
                if (graph.steps().get(i) instanceof Step.Cpu) probe.compute(i, List.of());
            }
            best = Math.min(best, System.nanoTime() - t0);
        }
        return best;
    }

    /** One thread for request timeouts; a cancelled timeout leaves the queue at once (one per request is armed). */
    private static ScheduledExecutorService timeoutScheduler() {
        var s = new java.util.concurrent.ScheduledThreadPoolExecutor(1, daemon("blocklab-timeouts"));
        s.setRemoveOnCancelPolicy(true);
        return s;
    }

    /** Interrupts a thread blocked in {@code submit} past the timeout, never after it has returned. */
    private static final class CallerInterrupt {
        private final Thread caller;
        private boolean returned, fired;

        CallerInterrupt(Thread caller) { this.caller = caller; }

        synchronized void fire() {
            if (returned) return;
            fired = true;
            caller.interrupt();
        }

        /** Called by the caller once submit returned: true when the timeout interrupted it (the flag is cleared). */
        boolean disarm() {
            boolean wasFired;
            synchronized (this) {
                returned = true;
                wasFired = fired;
            }
            if (wasFired) Thread.interrupted();
            return wasFired;
        }
    }

    private static int leftoverThreads(Set<Thread> before) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        int count;
        do {
            count = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (!before.contains(t) && t.isAlive() && !jvmOwned(t)) count++;
            }
            if (count == 0) return 0;
            LockSupport.parkNanos(20_000_000L);
        } while (System.nanoTime() < deadline);
        return count;
    }

    /**
     * Threads the JVM starts on demand and keeps: virtual-thread carriers and the scheduler's delay thread (group
     * {@code CarrierThreads}; {@code ForkJoinPool-N-delayScheduler}, started by the first sleeping virtual thread in
     * JDK 25), the common pool, the JDK's innocuous service threads (the poller that virtual threads' socket I/O
     * starts, {@code MasterPoller}; cleaners; the unblocker), service threads. A model's own pool leaves its workers,
     * which are counted. The one list of such threads: tests that check for threads left behind use it too.
     */
    public static boolean jvmOwned(Thread t) {
        String name = t.getName();
        ThreadGroup group = t.getThreadGroup();
        return t.getClass().getName().equals("jdk.internal.misc.CarrierThread")
                || t.getClass().getName().equals("java.util.concurrent.DelayScheduler")
                || t.getClass().getName().equals("jdk.internal.misc.InnocuousThread")
                || group != null && group.getName().equals("CarrierThreads")
                || name.startsWith("ForkJoinPool.commonPool-") || name.startsWith("VirtualThread-")
                || name.startsWith("blocklab-sampler") || name.startsWith("Common-Cleaner")
                || name.startsWith("Attach Listener") || name.startsWith("process reaper");
    }

    private static ThreadFactory daemon(String name) {
        return Thread.ofPlatform().daemon().name(name).factory();
    }

    private static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }
}
