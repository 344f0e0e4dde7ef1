package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.result.Outcome;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The failure semantics of docs/workloads.md ("Failures"), the same under every model: a request needs every
 * step (a failing branch that feeds nothing fails it too), fails at its first failure with that failure's cause
 * or timeout, and a cancelled request stops its calls (the backend's in-flight count drops).
 */
class FailureSemanticsTest {
    private static final long SCALE = 20;
    private static final long SEED = 11;
    private static final int REQUESTS = 24;
    private static final long S = 1_000_000_000L;

    static Stream<String> models() {
        return Models.catalog().stream().map(i -> i.needsSize() ? i.family() + ":8" : i.family());
    }

    /** The seed 002 framework variants of the registry, pools of 8. */
    static Stream<String> variants() {
        return dev.blocklab.registry.Registry.all().stream().filter(e -> e.kind() == ModelEntry.Kind.VARIANT)
                .map(i -> i.needsSize() ? i.family() + ":8" : i.family());
    }

    /**
     * The frameworks use case's four calls, failing and timing out as {@link #fanOutWithUnusedFailingBranch} does (a
     * variant makes only those four, all feeding its answer, so it has no unused branch: it refuses a graph with one,
     * {@link #check_variantOnAGraphWithAnUnusedBranch_refusedInOneLine}). {@code posts} fails a quarter of the time
     * after 0.2 s, {@code comments} takes 1 to 5 s and times out after 3 s, {@code albums} fails a fifth of the time
     * after 6 s; the first failure in time is also the first in step order.
     */
    static Graph frameworksWithFailures() {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step.Call("posts", List.of(), new Latency.Fixed(S / 5), new Value.Constant(dev.blocklab.frameworks.PlaceholderData.json("posts")),
                0.25, new Step.FailureSpec("java.io.IOException", "posts failed"), 0));
        steps.add(new Step.Call("comments", List.of(), new Latency.Uniform(S, 5 * S), new Value.Constant(dev.blocklab.frameworks.PlaceholderData.json("comments")),
                0, null, 3 * S));
        steps.add(new Step.Call("albums", List.of(), new Latency.Fixed(6 * S), new Value.Constant(dev.blocklab.frameworks.PlaceholderData.json("albums")),
                0.2, new Step.FailureSpec("java.lang.IllegalStateException", "albums failed"), 0));
        steps.add(new Step.Call("photos", List.of(), new Latency.Fixed(S / 5), new Value.Constant(dev.blocklab.frameworks.PlaceholderData.json("photos")),
                0, null, 0));
        steps.add(new Step.Combine("answer", dev.blocklab.frameworks.FrameworksUseCase.CALLS, new Value.Concat("")));
        return new Graph(0L, steps);
    }

    /**
     * Three independent calls and a combine of the first two. {@code a} fails a quarter of the time after 0.2 s,
     * {@code b} takes 1 to 5 s and times out after 3 s, {@code unused} feeds nothing and fails a fifth of the time
     * after 6 s. A failing call's wait grows with its step index (by 140 ms and more at scale 1/20, far beyond a
     * busy machine's timer noise), so the first failure in time is also the first in step order: a model that runs steps one after another and one that overlaps them meet the same first
     * failure, and the expected outcome is a function of the request alone ({@link #expected}).
     */
    static Graph fanOutWithUnusedFailingBranch() {
        return new Graph(0L, List.of(
                new Step.Call("a", List.of(), new Latency.Fixed(S / 5), new Value.Constant(1L), 0.25,
                        new Step.FailureSpec("java.io.IOException", "a failed"), 0),
                new Step.Call("b", List.of(), new Latency.Uniform(S, 5 * S), new Value.Constant(2L), 0, null, 3 * S),
                new Step.Call("unused", List.of(), new Latency.Fixed(6 * S), new Value.Constant(3L), 0.2,
                        new Step.FailureSpec("java.lang.IllegalStateException", "unused branch failed"), 0),
                new Step.Combine("out", List.of("a", "b"), new Value.Sum(0))));
    }

    /**
     * What the semantics say request {@code id} ends with, computed from its calls alone: with every call started
     * as soon as its inputs are ready, the failure that happens first (a call's failure or its timeout), else the
     * last step's value.
     */
    static String expected(Graph graph, long id) {
        Request request = new Request(id, graph, SEED, SCALE);
        int n = graph.steps().size();
        Object[] values = new Object[n];
        long[] finishNanos = new long[n];
        boolean[] ran = new boolean[n];
        long firstFailureNanos = Long.MAX_VALUE;
        String firstFailure = null;
        for (int i = 0; i < n; i++) {
            Step step = graph.steps().get(i);
            long start = 0;
            boolean ready = true;
            for (String in : step.inputs()) {
                int k = graph.indexOf(in);
                if (k < 0) continue;
                ready &= ran[k];
                start = Math.max(start, finishNanos[k]);
            }
            if (!ready) continue;   // an input failed: this step never runs
            if (step instanceof Step.Call) {
                CallInvocation call = request.invocation(i, request.inputsOf(i, values));
                finishNanos[i] = start + call.waitNanos();
                if (call.timesOut() || call.failure() != null) {
                    if (finishNanos[i] < firstFailureNanos) {
                        firstFailureNanos = finishNanos[i];
                        firstFailure = key(Outcome.of(null, call.newFailure()));
                    }
                    continue;
                }
                values[i] = call.value();
            } else {
                finishNanos[i] = start;
                values[i] = request.compute(i, request.inputsOf(i, values));
            }
            ran[i] = true;
        }
        return firstFailure != null ? firstFailure : key(new Outcome.Success(values[n - 1]));
    }

    /** One outcome as text: success with its value, failure with its cause, timeout with its detail, cancelled. */
    static String key(Outcome outcome) {
        return switch (outcome) {
            case Outcome.Success s -> "success " + s.value();
            case Outcome.Failure f -> "failure " + Outcome.describe(f.cause());
            case Outcome.Timeout t -> "timeout " + t.detail();
            case Outcome.Cancelled c -> "cancelled";
        };
    }

    private static Model create(String spec, SimulatedBackend backend) {
        dev.blocklab.model.ModelEntry info = Models.parse(spec).entry();
        assumeTrue(info.unavailable().isEmpty(), () -> spec + " unavailable: " + info.unavailable().orElse(""));
        return Models.create(spec, new ModelContext(backend, 8));
    }

    /** What the semantics say of each of the {@value #REQUESTS} requests of {@code graph}, in id order. */
    private static List<String> expectedOutcomes(Graph graph) {
        List<String> outcomes = new ArrayList<>();
        for (long id = 0; id < REQUESTS; id++) outcomes.add(expected(graph, id));
        return outcomes;
    }

    @Test
    void expected_workloadHasEveryKindOfOutcome() {
        assertThat(expectedOutcomes(fanOutWithUnusedFailingBranch())).anyMatch(o -> o.equals("success 3"))
                .anyMatch(o -> o.equals("failure java.io.IOException: a failed"))
                .anyMatch(o -> o.startsWith("timeout call 'b' timed out"))
                .anyMatch(o -> o.equals("failure java.lang.IllegalStateException: unused branch failed"));
    }

    @ParameterizedTest @MethodSource("models")
    void submit_failuresTimeoutsAndUnusedFailingBranch_sameOutcomePerRequestAsTheSemantics(String spec) {
        Graph graph = fanOutWithUnusedFailingBranch();
        Map<Long, String> expected = new TreeMap<>();
        Map<Long, String> actual;
        for (long id = 0; id < REQUESTS; id++) expected.put(id, expected(graph, id));
        try (SimulatedBackend backend = new SimulatedBackend(); Model model = create(spec, backend)) {
            actual = outcomes(model, graph);
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void expected_frameworksWithFailures_hasEveryKindOfOutcome() {
        assertThat(expectedOutcomes(frameworksWithFailures())).anyMatch(o -> o.startsWith("success"))
                .anyMatch(o -> o.equals("failure java.io.IOException: posts failed"))
                .anyMatch(o -> o.startsWith("timeout call 'comments' timed out"))
                .anyMatch(o -> o.equals("failure java.lang.IllegalStateException: albums failed"));
    }

    /** Every framework variant ends each request as the semantics say: the first failure in time, else its answer. */
    @ParameterizedTest @MethodSource("variants")
    void submit_variant_failuresAndTimeouts_sameOutcomePerRequestAsTheSemantics(String spec) {
        Graph graph = frameworksWithFailures();
        dev.blocklab.frameworks.FrameworksUseCase useCase = new dev.blocklab.frameworks.FrameworksUseCase();
        Map<Long, String> expected = new TreeMap<>();
        Map<Long, String> actual;
        ModelSpec variant = dev.blocklab.registry.Registry.parse(spec);
        assumeTrue(variant.entry().unavailable().isEmpty(), () -> spec + " unavailable: " + variant.entry().unavailable().orElse(""));
        variant.check(new Workload("frameworks-failing", "test", graph, new Arrival.Batch(REQUESTS)));
        for (long id = 0; id < REQUESTS; id++) {
            Request request = new Request(id, graph, SEED, SCALE);
            String e = expected(graph, id);
            if (e.startsWith("success")) {   // a variant answers with its merge, not the graph's concatenation
                List<Object> json = dev.blocklab.frameworks.FrameworksUseCase.CALLS.stream()
                        .map(c -> (Object) dev.blocklab.frameworks.PlaceholderData.json(c)).toList();
                e = key(new Outcome.Success(dev.blocklab.frameworks.FrameworksUseCase.answer(
                        useCase.postsAndComments(request, json.get(0), json.get(1)), useCase.albumsAndPhotos(request, json.get(2), json.get(3)))));
            }
            expected.put(id, e);
        }
        try (SimulatedBackend backend = new SimulatedBackend(); Model model = variant.create(new ModelContext(backend, 8))) {
            actual = outcomes(model, graph);
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void check_variantOnAGraphWithAnUnusedBranch_refusedInOneLine() {
        Graph graph = frameworksWithFailures();
        List<Step> steps = new ArrayList<>(graph.steps());
        steps.add(4, new Step.Call("unused", List.of(), new Latency.Fixed(6 * S), new Value.Constant(3L), 0.2, null, 0));
        Workload w = new Workload("frameworks-unused", "test", new Graph(0L, steps), new Arrival.Batch(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> dev.blocklab.registry.Registry.parse("reactor").check(w))
                .hasMessageContaining("call 'unused' is not one of the use case's four calls").hasMessageNotContaining("\n");
        List<Step> retried = new ArrayList<>(graph.steps());
        retried.set(0, ((Step.Call) retried.getFirst()).withAttempts(new Step.Attempts.Retry(2, 0)));
        Workload r = new Workload("frameworks-retried", "test", new Graph(0L, retried), new Arrival.Batch(1));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> dev.blocklab.registry.Registry.parse("reactor").check(r))
                .hasMessageContaining("call 'posts' is retried or hedged");
    }

    /** The discrepancy: through the driver, every model reports the same success count on the same seed. */
    @ParameterizedTest @MethodSource("models")
    void run_unusedFailingBranch_successCountAsTheSemantics(String spec) {
        assumeTrue(Models.parse(spec).entry().unavailable().isEmpty());
        Graph graph = fanOutWithUnusedFailingBranch();
        Workload w = new Workload("fan-out-failures", "test", graph, new Arrival.Batch(REQUESTS));
        RunResult r = new InProcessDriver().runOnce(w, spec, c -> Models.create(spec, c),
                new RunSettings(SCALE, 0, 1, 0, SEED, 8), Progress.NONE);
        long successes = Stream.iterate(0L, id -> id + 1).limit(REQUESTS)
                .filter(id -> expected(graph, id).startsWith("success")).count();
        assertThat(r.counts().successes()).isEqualTo(successes);
        assertThat(r.counts().failures() + r.counts().timeouts()).isEqualTo(REQUESTS - successes);
        assertThat(r.resources().leftoverThreads()).isZero();
    }

    @ParameterizedTest @MethodSource("models")
    void cancel_requestBlockedInACall_interruptsTheCallAndEndsCancelled(String spec) {
        assumeTrue(!spec.equals("sequential"), "sequential runs on the caller; nothing to cancel");
        Step.Call slow = Step.Call.fixed("slow", 1_000 * S, 1L);   // 50 s at scale 20
        Graph graph = new Graph(0L, List.of(slow, Step.Call.fixed("slow2", 1_000 * S, 2L),
                new Step.Combine("out", List.of("slow", "slow2"), new Value.Sum(0))));
        try (SimulatedBackend backend = new SimulatedBackend(); Model model = create(spec, backend)) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (long id = 0; id < 3; id++) futures.add(model.submit(new Request(id, graph, SEED, SCALE)));
            assertThat(awaitInFlight(backend, n -> n > 0)).as("calls in flight before the cancel").isPositive();
            futures.forEach(f -> f.cancel(true));
            assertThat(awaitInFlight(backend, n -> n == 0)).as("calls in flight after the cancel").isZero();
            for (CompletableFuture<Object> f : futures) {
                Throwable failure = null;
                try {
                    f.join();
                } catch (Exception e) {
                    failure = e;
                }
                assertThat(key(Outcome.of(null, failure))).isEqualTo("cancelled");
            }
        }
    }

    /** Submits requests 0..{@value #REQUESTS}-1 of {@code graph} at once; each one's outcome by id, as {@link #key}. */
    static Map<Long, String> outcomes(Model model, Graph graph) {
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        for (long id = 0; id < REQUESTS; id++) futures.add(model.submit(new Request(id, graph, SEED, SCALE)));
        Map<Long, String> outcomes = new TreeMap<>();
        for (int i = 0; i < REQUESTS; i++) outcomes.put((long) i, outcomeOf(futures.get(i)));
        return outcomes;
    }

    /** How a request's future ends (waiting at most 30 s), as {@link #key}. */
    static String outcomeOf(CompletableFuture<Object> f) {
        Object value = null;
        Throwable failure = null;
        try {
            value = f.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            failure = e;
        }
        return key(Outcome.of(value, failure));
    }

    /** Waits up to 10 s for the backend's in-flight count to satisfy {@code condition}; returns the last count. */
    static long awaitInFlight(SimulatedBackend backend, java.util.function.LongPredicate condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long n;
        while (!condition.test(n = backend.callsInFlight()) && System.nanoTime() < deadline)
            LockSupport.parkNanos(5_000_000L);
        return n;
    }
}
