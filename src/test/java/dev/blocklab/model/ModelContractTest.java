package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The one contract every model honours: the same answers and the same downstream calls for the same seed,
 * failures with their root cause, timeouts, cancellation, and no platform thread left after close.
 */
class ModelContractTest {
    private static final long SCALE = 100;
    private static final long SEED = 7;

    static Stream<String> models() {
        return Models.catalog().stream().map(i -> i.needsSize() ? i.family() + ":4" : i.family());
    }

    private static Model create(String spec, SimulatedBackend backend) {
        Models.Info info = Models.parse(spec);
        assumeTrue(info.unavailable().isEmpty(), () -> spec + " unavailable: " + info.unavailable().orElse(""));
        return Models.create(spec, new ModelContext(backend, 8));
    }

    /** Answers by request id, or the failure's type and message. */
    private static TreeMap<Long, String> answers(String spec, Graph graph, int requests, SimulatedBackend backend) {
        TreeMap<Long, String> out = new TreeMap<>();
        try (Model model = create(spec, backend)) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (int i = 0; i < requests; i++) futures.add(model.submit(new Request(i, graph, SEED, SCALE)));
            for (int i = 0; i < requests; i++) {
                try {
                    out.put((long) i, String.valueOf(futures.get(i).get(30, TimeUnit.SECONDS)));
                } catch (ExecutionException e) {
                    Throwable root = rootCause(e);
                    out.put((long) i, "failed: " + root.getClass().getName() + ": " + root.getMessage());
                } catch (Exception e) {
                    throw new AssertionError(spec + " request " + i + ": " + e, e);
                }
            }
        }
        return out;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof ExecutionException || cur instanceof CompletionException) && cur.getCause() != null)
            cur = cur.getCause();
        return cur;
    }

    @ParameterizedTest @MethodSource("models")
    void submit_taskGraph_answers13(String spec) {
        try (SimulatedBackend backend = new SimulatedBackend()) {
            assertThat(answers(spec, BuiltInWorkloads.taskGraph(false).graph(), 3, backend).values())
                    .containsOnly("13");
        }
    }

    @ParameterizedTest @MethodSource("models")
    void submit_profilePage_answersTheGreeting(String spec) {
        try (SimulatedBackend backend = new SimulatedBackend()) {
            assertThat(answers(spec, BuiltInWorkloads.profilePage().graph(), 2, backend).values())
                    .containsOnly("Hello Anton, you have 100 posts and 2000 followers!");
        }
    }

    @ParameterizedTest @MethodSource("models")
    void submit_mixedWorkload_sameAnswersAndCallsAsSequential(String spec) {
        Graph graph = mixedWithFrequentFailures();
        TreeMap<Long, String> expected;
        Set<String> expectedCalls;
        try (SimulatedBackend reference = new SimulatedBackend(true)) {
            expected = answers("sequential", graph, 40, reference);
            expectedCalls = calls(reference);
        }
        try (SimulatedBackend backend = new SimulatedBackend(true)) {
            assertThat(answers(spec, graph, 40, backend)).isEqualTo(expected);
            assertThat(calls(backend)).isEqualTo(expectedCalls);
        }
        assertThat(expected.values()).anyMatch(v -> v.startsWith("failed: java.io.IOException: audit"))
                .anyMatch(v -> !v.startsWith("failed"));
    }

    @ParameterizedTest @MethodSource("models")
    void submit_failingStep_surfacesOriginalTypeAndMessage(String spec) {
        try (SimulatedBackend backend = new SimulatedBackend(); Model model = create(spec, backend)) {
            CompletableFuture<Object> f = model.submit(new Request(0, BuiltInWorkloads.taskGraph(true).graph(), SEED, SCALE));
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .satisfies(e -> assertThat(rootCause(e)).isInstanceOf(IllegalArgumentException.class)
                            .hasMessage("This won't work!"));
        }
    }

    @ParameterizedTest @MethodSource("models")
    void submit_callTimeout_failsWithTimeoutLongBeforeTheDelay(String spec) {
        // the call would take 1000 s / 100 = 10 s; its timeout is 20 s / 100 = 200 ms
        Step.Call slow = new Step.Call("slow", List.of(), new Latency.Fixed(1_000_000_000_000L), new Value.Constant(1L),
                0, null, 20_000_000_000L);
        try (SimulatedBackend backend = new SimulatedBackend(); Model model = create(spec, backend)) {
            long t0 = System.nanoTime();
            CompletableFuture<Object> f = model.submit(new Request(0, Graph.singleCall(slow), SEED, SCALE));
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
                    .satisfies(e -> assertThat(rootCause(e)).isInstanceOf(TimeoutException.class));
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
        }
    }

    @ParameterizedTest @MethodSource("models")
    void close_afterCancellingBlockedRequests_returnsPromptly(String spec) {
        assumeTrue(!spec.equals("sequential"), "sequential runs on the caller; nothing to cancel");
        Step.Call slow = Step.Call.fixed("slow", 1_000_000_000_000L, 1L); // 10 s at scale 100
        SimulatedBackend backend = new SimulatedBackend();
        Model model = create(spec, backend);
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) futures.add(model.submit(new Request(i, Graph.singleCall(slow), SEED, SCALE)));
        futures.forEach(f -> f.cancel(true));
        long t0 = System.nanoTime();
        model.close();
        backend.close();
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(futures).allMatch(CompletableFuture::isCancelled);
    }

    @ParameterizedTest @MethodSource("models")
    void run_throughDriver_leavesNoPlatformThreadBehind(String spec) {
        assumeTrue(Models.parse(spec).unavailable().isEmpty());
        Workload w = BuiltInWorkloads.taskGraph(false).withArrival(new dev.blocklab.workload.Arrival.Batch(10));
        RunResult r = new InProcessDriver().runOnce(w, spec, c -> Models.create(spec, c),
                RunSettings.DEFAULTS.withTimeScale(SCALE), Progress.NONE);
        assertThat(r.counts().successes()).isEqualTo(10);
        assertThat(r.answer()).isEqualTo(13L);
        assertThat(r.resources().leftoverThreads()).isZero();
    }

    /** The mixed workload with the audit call failing a third of the time, so failures show in 40 requests. */
    private static Graph mixedWithFrequentFailures() {
        Graph g = BuiltInWorkloads.mixed().graph();
        List<Step> steps = new ArrayList<>(g.steps());
        Step.Call audit = (Step.Call) steps.getLast();
        steps.set(steps.size() - 1, new Step.Call(audit.name(), audit.inputs(), audit.latency(), audit.returns(),
                0.33, audit.failure(), 0));
        return new Graph(g.input(), steps);
    }

    private static Set<String> calls(SimulatedBackend backend) {
        Set<String> out = new HashSet<>();
        for (CallInvocation c : backend.recordedCalls()) out.add(c.requestId() + "/" + c.call() + "/" + c.delayNanos());
        return out;
    }
}
