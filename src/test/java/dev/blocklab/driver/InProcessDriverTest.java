package dev.blocklab.driver;

import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.model.Prediction;
import dev.blocklab.registry.Registry;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InProcessDriverTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private final InProcessDriver driver = new InProcessDriver();
    private final RunSettings quick = RunSettings.DEFAULTS.withTimeScale(100).withRuns(0, 1);

    @Test
    void run_batch_countsEveryRequestAndPredictsWaves() {
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(40)), "fixed:4", quick, Progress.NONE);
        assertThat(r.counts().requests()).isEqualTo(40);
        assertThat(r.counts().successes()).isEqualTo(40);
        assertThat(r.answer()).isEqualTo(99L);
        assertThat(r.prediction().predictedMillis()).isEqualTo(100.0); // ceil(40/4) x 10 ms
        assertThat(r.timing().wallMillis()).isGreaterThanOrEqualTo(95.0);
        assertThat(r.timing().latencyMillis().count()).isEqualTo(40);
        assertThat(r.timing().latencyMillis().max()).isGreaterThanOrEqualTo(r.timing().latencyMillis().p50());
        assertThat(r.resources().peakPlatformThreads()).isGreaterThanOrEqualTo(4);
        assertThat(r.resources().platformThreadsStarted()).isGreaterThanOrEqualTo(4);
    }

    @Test
    void run_wallTimeEndsAtTheLastCompletion_notAfterTheProgressLineThatFollows() {
        // A request run on the caller (as seed 000's blocking joins) completes inside submit; the progress line
        // printed after it (here a slow one, 300 ms) used to count in the wall time: one request, 400 ms of
        // latency, 700 ms of wall time.
        dev.blocklab.model.Model onCaller = new dev.blocklab.model.Model() {
            @Override public String name() { return "on-caller"; }
            @Override public java.util.concurrent.CompletableFuture<Object> submit(dev.blocklab.workload.Request request) {
                parkFor(400_000_000L);
                return java.util.concurrent.CompletableFuture.completedFuture("done");
            }
            @Override public dev.blocklab.model.Prediction predict(dev.blocklab.model.Demand d) {
                return new dev.blocklab.model.Prediction(400_000_000L, "400 ms on the caller", dev.blocklab.workload.RequestTimes.Path.CRITICAL);
            }
            @Override public void close() {}
        };
        List<String> lines = new ArrayList<>();
        Progress slow = line -> {
            lines.add(line);
            parkFor(1_000_000_000L);
        };
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(1)), "on-caller", c -> onCaller, quick, slow);
        assertThat(lines).as("the progress line was printed after the request").isNotEmpty();
        assertThat(r.timing().latencyMillis().max()).isGreaterThanOrEqualTo(390.0);
        assertThat(r.timing().wallMillis() - r.timing().latencyMillis().max())
                .as("wall %s ms beside the only request's latency %s ms", r.timing().wallMillis(), r.timing().latencyMillis().max())
                .isLessThan(600.0);   // the progress line's 1,000 ms would be in it if wall counted the printing

    }

    @Test
    void run_countsCpuFromTheFirstSendToTheLastCompletion_notBuildingOrClosingTheModel() {
        // a model that burns 400 ms of CPU when built and again when closed, and answers at once: a run's CPU once
        // covered both, "110 % busy" for a short run
        dev.blocklab.model.Model costly = new dev.blocklab.model.Model() {
            @Override public String name() { return "costly"; }
            @Override public java.util.concurrent.CompletableFuture<Object> submit(dev.blocklab.workload.Request request) {
                return java.util.concurrent.CompletableFuture.completedFuture("done");
            }
            @Override public dev.blocklab.model.Prediction predict(dev.blocklab.model.Demand d) {
                return new dev.blocklab.model.Prediction(0, "at once", dev.blocklab.workload.RequestTimes.Path.CRITICAL);
            }
            @Override public void close() { burnCpu(400); }
        };
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(1)), "costly",
                c -> { burnCpu(400); return costly; }, quick, Progress.NONE);
        assertThat(r.counts().successes()).isEqualTo(1);
        assertThat(r.resources().cpuMillis()).as("CPU of one instant request").isLessThan(200.0);
    }

    @Test
    void run_submitOutlivingTheDeadline_failsTheModelsOwnFuture_soTheModelStopsItsWork() {
        // A model's submit held past the request's deadline (a slow start on a busy machine), returning a future
        // for work still going on. The driver once dropped that future for a failed one of its own: the model
        // never learned that the request had ended, and its call ran on unseen.
        var returned = new java.util.concurrent.CompletableFuture<Object>();
        dev.blocklab.model.Model slowStart = new dev.blocklab.model.Model() {
            @Override public String name() { return "slow-start"; }
            @Override public java.util.concurrent.CompletableFuture<Object> submit(dev.blocklab.workload.Request request) {
                try {
                    Thread.sleep(30_000);   // the driver's interrupt at the 10 ms deadline ends it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return returned;
            }
            @Override public dev.blocklab.model.Prediction predict(dev.blocklab.model.Demand d) {
                return new dev.blocklab.model.Prediction(0, "at once", dev.blocklab.workload.RequestTimes.Path.CRITICAL);
            }
            @Override public void close() {}
        };
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(1)), "slow-start",
                c -> slowStart, quick.withRequestTimeoutNanos(1 * S), Progress.NONE);
        assertThat(r.counts().timeouts()).isEqualTo(1);
        assertThat(returned).as("the model's own future").isCompletedExceptionally();
        assertThat(r.timing().wallMillis()).as("ended by the interrupt, not the 30 s sleep").isLessThan(15_000.0);
        assertThat(Thread.interrupted()).as("the caller's interrupt flag after the run").isFalse();
    }

    /** Parks for the whole of {@code nanos}: a park may return early (a permit left by an earlier test's unpark). */
    private static void parkFor(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime())
            java.util.concurrent.locks.LockSupport.parkNanos(left);
    }

    /** Keeps this thread on a core for {@code millis} of its own CPU time. */
    private static void burnCpu(long millis) {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + millis * 1_000_000;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) x += System.nanoTime() % 7;
        if (x == 42) System.out.print("");   // keeps the loop's work
    }

    @Test
    void run_countsTheBackendsCalls_retriesIncluded() {
        // a call that always fails, tried three times: three backend calls per request, what 'calls/req' shows
        Step.Call flaky = new Step.Call("flaky", List.of(), new Latency.Fixed(S), new Value.Constant(1L), 1.0, null, 0, null,
                new Step.Attempts.Retry(3, 0));
        Workload w = new Workload("retried", "retried", new Graph(0L, List.of(flaky)), new Arrival.Batch(20));
        for (String model : List.of("fixed:4", "cf-nonblocking:2")) {
            RunResult r = driver.run(w, model, quick, Progress.NONE);
            assertThat(r.counts().failures()).as(model).isEqualTo(20);
            assertThat(r.backendCalls()).as(model).isEqualTo(60);
            assertThat(r.backendCallsPerRequest()).as(model).isEqualTo(3.0);
        }
        RunResult once = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(10)), "virtual", quick, Progress.NONE);
        assertThat(once.backendCalls()).as("one call per request, no retry").isEqualTo(10);
    }

    @Test
    void run_open_sendsTheScheduledNumber() {
        Workload w = BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Open(1000, 5 * S)); // 50 ms at /100
        RunResult r = driver.run(w, "virtual", quick, Progress.NONE);
        assertThat(r.counts().requests()).isEqualTo(5000);
        assertThat(r.successRatio()).isEqualTo(1.0);
    }

    @Test
    void run_closed_keepsUsersBusyForTheDuration() {
        Workload w = BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Closed(4, 200 * S)); // 2 s of 10 ms calls
        RunResult r = driver.run(w, "fixed:4", quick, Progress.NONE);
        // 4 users x at most 200 rounds; generous bounds for a noisy machine (a pause of a few hundred ms costs rounds)
        assertThat(r.counts().requests()).isBetween(20L, 800L);
        assertThat(r.counts().failures()).isZero();
    }

    @Test
    void run_requestTimeout_countsTimeoutsAndFreesThreads() {
        Workload w = new Workload("slow", "slow", Graph.singleCall(Step.Call.fixed("slow", 1000 * S, 1L)), new Arrival.Batch(3));
        RunResult r = driver.run(w, "fixed:3", quick.withRequestTimeoutNanos(10 * S), Progress.NONE);
        assertThat(r.counts().timeouts()).isEqualTo(3);
        assertThat(r.counts().successes()).isZero();
        assertThat(r.timing().wallMillis()).isLessThan(5_000.0);
        assertThat(r.resources().leftoverThreads()).isZero();
        // the prediction knows every request ends by its deadline: the timeout, not the 1000 s call
        assertThat(r.prediction().predictedMillis()).isEqualTo(10 * S / quick.timeScaleDivisor() / 1e6);
        assertThat(r.prediction().predictionBasis()).contains("at most the request timeout");
    }

    @Test
    void run_requestTimeout_countsFromTheIntendedStart_soARequestQueuedOnTheCallerTimesOutAsInAPool() {
        // five 100 ms requests of one batch, a 150 ms deadline: one thread serves them one after another under
        // both models. The deadline once started when sequential's caller got to a request, so all five succeeded
        // (the last 500 ms after its arrival), where fixed:1 timed four out.
        Workload w = new Workload("slow", "slow", Graph.singleCall(Step.Call.fixed("slow", 10 * S, 1L)), new Arrival.Batch(5));
        for (String model : List.of("sequential", "fixed:1")) {
            RunResult r = driver.run(w, model, quick.withRequestTimeoutNanos(15 * S), Progress.NONE);
            // the first request has 50 ms to spare; a machine that holds it back longer times it out too
            assertThat(r.counts().successes() + r.counts().timeouts()).as(model).isEqualTo(5);
            assertThat(r.counts().timeouts()).as(model).isGreaterThanOrEqualTo(4);
        }
    }

    /**
     * A request's deadline stops its lone call under every engine model, the non-blocking ones included: the
     * driver completes the request's future exceptionally, and a model whose future for a one-step graph is the
     * call's own must still stop that call (cf-nonblocking once left its timer pending: 0 of 100 cancellations
     * honoured, every call running on to its end). A warm-up run first, so a cold JVM's class loading on a busy
     * machine does not keep an interrupted call alive past the meter's grace.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("engineModels")
    void run_requestTimeout_stopsTheLoneCall_underEveryModel(String model) {
        // 1000 s at /100: a call not stopped runs far past its 100 ms deadline
        Workload w = new Workload("slow", "slow", Graph.singleCall(Step.Call.fixed("slow", 1000 * S, 1L)), new Arrival.Batch(4));
        RunResult r = driver.run(w, model, quick.withRuns(1, 1).withRequestTimeoutNanos(10 * S), Progress.NONE);
        assertThat(r.counts().timeouts()).isEqualTo(4);
        var score = r.failureScore();
        assertThat(score.measured()).isTrue();
        // every call in flight at its deadline stops by interruption or cancellation (one run on the caller stops
        // before its request ends, and a queued request's call never starts: neither needs a cancellation)
        assertThat(score.callsLeftRunning()).as(model + ": " + score).isZero();
        // each orphan stopped well within the meter's grace, which an orphan not stopped runs out (1 s each)
        assertThat(score.orphanBackendMillis()).as(model + ": " + score)
                .isLessThan(Math.max(1, score.orphanedCalls()) * dev.blocklab.recorder.FailureMeter.QUIET_GRACE_NANOS / 2e6);
        assertThat(score.cancellationsHonoured()).as(model + ": " + score).isEqualTo(score.cancellationsRequested());
    }

    static List<String> engineModels() {
        return dev.blocklab.registry.Registry.all().stream()
                .filter(e -> e.kind() == dev.blocklab.model.ModelEntry.Kind.MODEL && e.unavailable().isEmpty())
                .map(dev.blocklab.model.ModelEntry::example)
                .toList();
    }

    @Test
    void measuredMillis_comparesLatencyWithThePredictionOfOpenRuns() {
        Workload w = BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Open(500, 2 * S)); // 20 ms at /100
        RunResult r = driver.run(w, "virtual", quick, Progress.NONE);
        assertThat(r.predictsWallTime()).isFalse();
        assertThat(r.measuredMillis()).isEqualTo(r.timing().latencyMillis().mean());
        assertThat(r.prediction().predictedMillis()).isEqualTo(10.0); // one request: 1 s / 100
    }

    @Test
    void run_repeats_reportsMedianAndRange() {
        List<String> progress = new ArrayList<>();
        RunResult r = driver.run(BuiltInWorkloads.hundredCalls().withArrival(new Arrival.Batch(4)), "virtual",
                quick.withRuns(1, 3), progress::add);
        assertThat(r.repeats().count()).isEqualTo(3);
        assertThat(r.repeats().wallMillisMin()).isLessThanOrEqualTo(r.timing().wallMillis());
        assertThat(r.repeats().wallMillisMax()).isGreaterThanOrEqualTo(r.timing().wallMillis());
    }

    @Test
    void run_failures_areCountedByCause() {
        RunResult r = driver.run(BuiltInWorkloads.taskGraph(true), "cf-nonblocking:2", quick, Progress.NONE);
        assertThat(r.counts().failures()).isEqualTo(1);
        assertThat(r.counts().failureCauses()).containsEntry("java.lang.IllegalArgumentException: This won't work!", 1L);
        // the first failure keeps the top of its stack, so a report can say where it was thrown
        assertThat(r.firstFailure().cause()).isEqualTo("java.lang.IllegalArgumentException: This won't work!");
        assertThat(r.firstFailure().frames()).isNotEmpty().allSatisfy(frame -> assertThat(frame).matches(".+\\(.*\\)"));
    }

    @Test
    void run_noFailures_noFirstFailure() {
        RunResult r = driver.run(BuiltInWorkloads.taskGraph(false), "cf-nonblocking:2", quick, Progress.NONE);
        assertThat(r.counts().failures()).isZero();
        assertThat(r.firstFailure()).isNull();
    }

    /** A check that always fails at 10 ms, then a 1 s call (examples/fail-fast.yaml): every request fails at the check. */
    private static Workload failsAtTheCheck(Arrival arrival) {
        return failsAtTheCheck(arrival, S);
    }

    /** As {@link #failsAtTheCheck(Arrival)}, the second call taking {@code slowNanos}. */
    private static Workload failsAtTheCheck(Arrival arrival, long slowNanos) {
        return new Workload("fail-fast", "test", new Graph(0L, List.of(
                new Step.Call("check", List.of(), new Latency.Fixed(S / 100), new Value.Constant(1L), 1,
                        new Step.FailureSpec("java.io.IOException", "check failed"), 0),
                Step.Call.fixed("slow", slowNanos, 2L), new Step.Combine("page", List.of("check", "slow"), new Value.Sum(0)))), arrival);
    }

    @Test
    void predict_aModelThatFailsFast_endsEachRequestAtItsFirstFailure() {
        RunSettings real = RunSettings.DEFAULTS.withTimeScale(1);
        Workload batch = failsAtTheCheck(new Arrival.Batch(100));
        // was 1,010 ms (virtual), 13 x 1,010 ms (fixed:8) and 1,000 ms (cf-nonblocking:2): every call's whole time
        assertThat(InProcessDriver.predict(batch, Registry.parse("virtual"), real).millis()).isEqualTo(10.0);
        assertThat(InProcessDriver.predict(batch, Registry.parse("fixed:8"), real).millis()).isEqualTo(130.0);   // ceil(100 / 8) x 10 ms
        Prediction overlapped = InProcessDriver.predict(batch, Registry.parse("cf-nonblocking:2"), real);
        assertThat(overlapped.millis()).isEqualTo(10.0);
        assertThat(overlapped.basis()).contains("ends at its first failure");
        // an open stream's latency too: one request alone, 10 ms
        Workload open = failsAtTheCheck(new Arrival.Open(50, 4 * S));
        assertThat(InProcessDriver.predict(open, Registry.parse("virtual"), real).millis()).isEqualTo(10.0);
        // measured: the run ends its requests at the check, far from the slow call (10 s here, so that the bound
        // leaves a loaded machine, which stalls a JVM for seconds, room: 500 ms against a 1 s call left little)
        RunResult r = driver.run(failsAtTheCheck(new Arrival.Batch(20), 10 * S), "virtual", RunSettings.DEFAULTS.withTimeScale(1).withRuns(0, 1), Progress.NONE);
        assertThat(r.counts().failures()).isEqualTo(20);
        assertThat(r.prediction().predictedMillis()).isEqualTo(10.0);
        assertThat(r.prediction().failuresCounted()).isTrue();   // so a report does not name them as a gap's cause
        assertThat(r.timing().wallMillis()).isLessThan(5_000.0);
        // nothing to count where no call can fail
        assertThat(driver.run(BuiltInWorkloads.taskGraph(false), "virtual", quick, Progress.NONE).prediction().failuresCounted()).isFalse();
    }

    @Test
    void predict_aVariantThatWaitsForEveryCall_countsEveryCallsTime_oneThatFailsFastDoesNot() {
        // seed 002's calls: posts and albums 2 s, comments (always failing) and photos 20 ms; one request alone
        Workload failing = FrameworksUseCase.workload(2 * S, 20 * MS, new Arrival.Batch(1), "comments", null);
        RunSettings real = RunSettings.DEFAULTS.withTimeScale(1);
        for (String waits : List.of("invokeall:8", "supplyasync:8", "cf-suspended:8", "disruptor-latch", "disruptor-async", "frameworks-virtual")) {
            Prediction p = InProcessDriver.predict(failing, Registry.parse(waits), real);
            assertThat(p.millis()).as(waits).isEqualTo(2_000.0);
            assertThat(p.basis()).as(waits).contains("does not fail fast");
        }
        for (String failsFast : List.of("reactor", "rx-nonblocking", "vertx-event-loop", "pekko-async", "frameworks-structured"))
            assertThat(InProcessDriver.predict(failing, Registry.parse(failsFast), real).millis()).as(failsFast).isEqualTo(20.0);
        // one after another: posts (2 s), then comments fails; albums and photos never start
        for (String inOrder : List.of("frameworks-sequential", "disruptor-stages"))
            assertThat(InProcessDriver.predict(failing, Registry.parse(inOrder), real).millis()).as(inOrder).isEqualTo(2_020.0);
    }
}
