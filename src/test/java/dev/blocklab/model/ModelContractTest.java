package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.registry.Registry;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.RequestTimes;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
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
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The one contract every registry entry honours, engine models and framework variants alike: on every contract
 * workload it can run, the same answers as the reference of its kind ({@code sequential}, or
 * {@code frameworks-sequential}) and the same downstream calls as {@code sequential}, for the same seed; failures
 * with their root cause; call timeouts; cancellation; no platform thread left after close; and the entry's
 * prediction, made without an instance, equal to the instance's. An engine model
 * runs every contract workload, a variant only the frameworks use case. Delays are divided by {@value #SCALE}.
 *
 * <p>An entry that starts a server ({@code jaxrs-*}: an embedded Tomcat, warmed up) starts it once for this class,
 * not once per test: the tests of answers, failures and timeouts share one instance per entry ({@link #lease}),
 * while the tests of close and of threads left behind still create and close their own, and {@link #closeShared}
 * checks that the shared instances leave no thread behind either.
 */
class ModelContractTest {
    private static final long SCALE = 100;
    /** For answers and calls only, where time does not matter. */
    private static final long FAST_SCALE = 1000;
    private static final long SEED = 7;
    private static final String MODEL_REFERENCE = "sequential";
    private static final String VARIANT_REFERENCE = "frameworks-sequential";
    /** The failure every contract workload's failing form throws. */
    private static final Step.FailureSpec FAILURE = new Step.FailureSpec(IllegalArgumentException.class.getName(), "This won't work!");
    /** A call that would take 1000 s / 100 = 10 s. */
    private static final long SLOW_NANOS = 1_000_000_000_000L;

    /** Every entry of the registry, by an example name ({@code fixed:4}, {@code invokeall:4}, {@code reactor}). */
    static Stream<String> entries() {
        return Registry.all().stream().map(ModelEntry::example);
    }

    /** The contract workloads: each entry runs those it can. */
    private static List<Graph> workloads() {
        return List.of(BuiltInWorkloads.taskGraph(false).graph(), BuiltInWorkloads.profilePage().graph(),
                mixedWithFrequentFailures(), frameworks().graph());
    }

    private static Workload frameworks() {
        return FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(10));
    }

    private static ModelSpec spec(String name) {
        ModelSpec spec = Registry.parse(name);
        assumeTrue(spec.entry().unavailable().isEmpty(), () -> name + " unavailable: " + spec.entry().unavailable().orElse(""));
        return spec;
    }

    private static boolean runs(ModelSpec spec, Graph graph) { return spec.entry().cannotRun().apply(graph).isEmpty(); }

    /** The first of the entry's runnable forms: the engine's own graph for a model, the frameworks one for a variant. */
    private static Graph first(ModelSpec spec, Graph engine, Graph frameworks) {
        return runs(spec, engine) ? engine : frameworks;
    }

    /** The frameworks use case with its first call ({@code posts}) changed. */
    private static Graph frameworksWithPosts(UnaryOperator<Step.Call> change) {
        List<Step> steps = new ArrayList<>(frameworks().graph().steps());
        steps.set(FrameworksUseCase.POSTS, change.apply((Step.Call) steps.get(FrameworksUseCase.POSTS)));
        return new Graph(0L, steps);
    }

    /** Answers by request id, or the failure's type and message. */
    private static TreeMap<Long, String> answers(ModelSpec spec, Graph graph, int requests, SimulatedBackend backend) {
        return answers(spec, graph, requests, backend, SCALE);
    }

    private static TreeMap<Long, String> answers(ModelSpec spec, Graph graph, int requests, SimulatedBackend backend, long scale) {
        try (Model model = spec.create(new ModelContext(backend, 8))) {
            return answers(spec, model, graph, requests, scale);
        }
    }

    private static TreeMap<Long, String> answers(ModelSpec spec, Model model, Graph graph, int requests, long scale) {
        TreeMap<Long, String> out = new TreeMap<>();
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        for (int i = 0; i < requests; i++) futures.add(model.submit(new Request(i, graph, SEED, scale)));
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
        return out;
    }

    private static Throwable rootCause(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof ExecutionException || cur instanceof CompletionException) && cur.getCause() != null)
            cur = cur.getCause();
        return cur;
    }

    @Test
    void references_answerWhatTheWorkloadsMean() {
        try (SimulatedBackend backend = new SimulatedBackend()) {
            ModelSpec sequential = Registry.parse(MODEL_REFERENCE);
            assertThat(answers(sequential, BuiltInWorkloads.taskGraph(false).graph(), 3, backend).values()).containsOnly("13");
            assertThat(answers(sequential, BuiltInWorkloads.profilePage().graph(), 2, backend).values())
                    .containsOnly("Hello Anton, you have 100 posts and 2000 followers!");
            assertThat(answers(Registry.parse(VARIANT_REFERENCE), frameworks().graph(), 2, backend).values())
                    .allSatisfy(a -> assertThat(a).contains("posts\n").contains("albums\n").contains("sorted longs"));
        }
        assertThat(Registry.all()).filteredOn(e -> e.kind() == ModelEntry.Kind.VARIANT).allSatisfy(e ->
                assertThat(e.cannotRun().apply(BuiltInWorkloads.taskGraph(false).graph())).isPresent());
    }

    /** What a reference did on one contract workload, computed once per (reference, workload). */
    private record Expected(TreeMap<Long, String> answers, Set<String> calls) {}

    private static final java.util.Map<String, Expected> EXPECTED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Requests per contract workload: 40 for the mixed one, so that its failures show; 10 for the others. */
    private static int requests(int workload) { return workload == 2 ? 40 : 10; }

    private static Expected observe(ModelSpec spec, int workload) {
        try (Lease lease = lease(spec)) {
            int before = lease.backend().recordedCalls().size();   // a shared backend has the calls of earlier tests
            TreeMap<Long, String> answers = answers(spec, lease.model(), workloads().get(workload), requests(workload), FAST_SCALE);
            List<CallInvocation> calls = lease.backend().recordedCalls();
            return new Expected(answers, calls(calls.subList(before, calls.size())));
        }
    }

    private static Expected expected(String reference, int workload) {
        return EXPECTED.computeIfAbsent(reference + " " + workload, k -> observe(Registry.parse(reference), workload));
    }

    @ParameterizedTest @MethodSource("entries")
    void submit_everyWorkloadItRuns_sameAnswersAsItsReferenceAndSameCallsAsSequential(String name) {
        ModelSpec spec = spec(name);
        String reference = spec.entry().kind() == ModelEntry.Kind.MODEL ? MODEL_REFERENCE : VARIANT_REFERENCE;
        int ran = 0;
        for (int w = 0; w < workloads().size(); w++) {
            if (!runs(spec, workloads().get(w))) continue;
            ran++;
            Expected seen = observe(spec, w);
            assertThat(seen.answers()).as(name + " answers, workload " + w).isEqualTo(expected(reference, w).answers());
            assertThat(seen.calls()).as(name + " calls, workload " + w).isEqualTo(expected(MODEL_REFERENCE, w).calls());
        }
        assertThat(ran).as(name + " runs at least one contract workload").isPositive();
    }

    @Test
    void mixedWorkload_failsOftenEnoughToTestFailures() {
        try (SimulatedBackend backend = new SimulatedBackend()) {
            assertThat(answers(Registry.parse(MODEL_REFERENCE), mixedWithFrequentFailures(), 40, backend).values())
                    .anyMatch(v -> v.startsWith("failed: java.io.IOException: audit")).anyMatch(v -> !v.startsWith("failed"));
        }
    }

    /** The engine models: the entries a workload on a real server runs under (a framework variant runs seed 002's use case only). */
    static Stream<String> engineModels() {
        return Registry.all().stream().filter(e -> e.kind() == ModelEntry.Kind.MODEL).map(ModelEntry::example);
    }

    @ParameterizedTest @MethodSource("engineModels")
    void callsNonBlocking_isTheFormItsCallsTake(String name) throws Exception {
        // a real server's client is chosen by the form a model calls in (Jedis or Lettuce), and so is the pool its
        // prediction is bound by: the declared form must be the one used
        ModelSpec spec = spec(name);
        java.util.concurrent.atomic.AtomicInteger blocking = new java.util.concurrent.atomic.AtomicInteger(), async = new java.util.concurrent.atomic.AtomicInteger();
        try (SimulatedBackend simulated = new SimulatedBackend()) {
            dev.blocklab.backend.Backend recording = new dev.blocklab.backend.Backend() {
                @Override public String name() { return "recording"; }
                @Override public Object callBlocking(CallInvocation call) throws Exception { blocking.incrementAndGet(); return simulated.callBlocking(call); }
                @Override public CompletableFuture<Object> callAsync(CallInvocation call) { async.incrementAndGet(); return simulated.callAsync(call); }
                @Override public long callsStarted() { return simulated.callsStarted(); }
                @Override public void close() {}
            };
            try (Model model = spec.create(new ModelContext(recording, 8))) {
                model.submit(new Request(0, BuiltInWorkloads.taskGraph(false).graph(), SEED, SCALE)).get(30, TimeUnit.SECONDS);
            }
        }
        assertThat(blocking.get() + async.get()).as(name + " made calls").isPositive();
        assertThat(async.get() > 0 ? "non-blocking" : "blocking").as(name + " (blocking " + blocking + ", async " + async + ")")
                .isEqualTo(spec.callsNonBlocking() ? "non-blocking" : "blocking");
        assertThat(blocking.get() == 0 || async.get() == 0).as(name + " calls in one form only").isTrue();
    }

    @ParameterizedTest @MethodSource("entries")
    void predict_theEntrysFormulaWithoutAnInstance_isTheInstances(String name) {
        ModelSpec spec = spec(name);
        List<Demand> demands = new ArrayList<>();
        for (Graph graph : workloads()) {
            if (!runs(spec, graph)) continue;
            demands.add(Demand.of(graph, 100, SCALE, 1_000, 4));
            demands.add(Demand.of(graph, 1, SCALE, 0, 2));
            if (RequestTimes.isRandom(graph)) demands.add(Demand.of(graph, 100, SCALE, 1_000, 4, RequestTimes.draw(graph, SEED, SCALE, 100, true)));
        }
        assertThat(demands).isNotEmpty();
        try (SimulatedBackend backend = new SimulatedBackend(); Model model = spec.create(new ModelContext(backend, 8))) {
            for (Demand d : demands) assertThat(spec.predict(d, 8)).as(d.toString()).isEqualTo(model.predict(d));
        }
    }

    @ParameterizedTest @MethodSource("entries")
    void submit_failingStep_surfacesOriginalTypeAndMessage(String name) {
        ModelSpec spec = spec(name);
        Graph failing = first(spec, BuiltInWorkloads.taskGraph(true).graph(),
                frameworksWithPosts(c -> new Step.Call(c.name(), c.inputs(), c.latency(), c.returns(), 1, FAILURE, 0)));
        try (Lease lease = lease(spec)) {
            CompletableFuture<Object> f = lease.model().submit(new Request(0, failing, SEED, SCALE));
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .satisfies(e -> assertRootCause(rootCause(e), IllegalArgumentException.class, "This won't work!"));
        }
    }

    @ParameterizedTest @MethodSource("entries")
    void submitWithCallback_handsOverTheOutcomeTheFutureHas_once(String name) throws Exception {
        ModelSpec spec = spec(name);
        Graph answering = first(spec, BuiltInWorkloads.taskGraph(false).graph(), frameworksWithPosts(c -> c));
        Graph failing = first(spec, BuiltInWorkloads.taskGraph(true).graph(),
                frameworksWithPosts(c -> new Step.Call(c.name(), c.inputs(), c.latency(), c.returns(), 1, FAILURE, 0)));
        try (Lease lease = lease(spec)) {
            for (Graph graph : List.of(answering, failing)) {
                String viaFuture;
                try {
                    viaFuture = "answer " + lease.model().submit(new Request(0, graph, SEED, SCALE)).get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    viaFuture = "failure " + rootCause(e);
                }
                java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
                CompletableFuture<String> viaCallback = new CompletableFuture<>();
                lease.model().submit(new Request(0, graph, SEED, SCALE), (v, e) -> {
                    calls.incrementAndGet();
                    viaCallback.complete(e == null ? "answer " + v : "failure " + rootCause(e));
                });
                assertThat(viaCallback.get(30, TimeUnit.SECONDS)).as(name).isEqualTo(viaFuture);
                Thread.sleep(20);   // a second call would come from the same completion, at once
                assertThat(calls).as("called once").hasValue(1);
            }
        }
    }

    /**
     * The original failure, its type and message intact; from an entry behind HTTP ({@code jaxrs-*}), an
     * {@link java.io.IOException} whose message carries them, as the server answered.
     */
    private static void assertRootCause(Throwable root, Class<? extends Throwable> type, String message) {
        if (root instanceof java.io.IOException && root.getMessage() != null && root.getMessage().startsWith("HTTP 500 "))
            assertThat(root.getMessage()).contains(type.getName() + ": " + (message == null ? "" : message));
        else {
            assertThat(root).isInstanceOf(type);
            if (message != null) assertThat(root).hasMessage(message);
        }
    }

    /**
     * The entry's {@link ModelEntry#failsFast}, which predictions made without an instance read, is its instance's, and
     * is how its requests end: a call that fails at 10 ms (first in step order) beside calls of 1.5 s ends a request of
     * an entry that fails fast long before them, while one that waits for every call it started ends only once they
     * have (a timer never fires early). Generous bounds: under 750 ms (75 times the failure's time), at least 1 s (two
     * thirds of the slow calls' time).
     */
    @ParameterizedTest @MethodSource("entries")
    void failsFast_theEntrysAndTheInstancesSay_howItsRequestsEnd(String name) {
        ModelSpec spec = spec(name);
        long failsAtNanos = 1_000_000_000L, slowNanos = 150_000_000_000L;   // 10 ms and 1.5 s at scale 100
        Graph failing = first(spec, new Graph(0L, List.of(
                        new Step.Call("check", List.of(), new Latency.Fixed(failsAtNanos), new Value.Constant(1L), 1, FAILURE, 0),
                        Step.Call.fixed("slow", slowNanos, 2L), new Step.Combine("out", List.of("check", "slow"), new Value.Sum(0)))),
                frameworksFailingFirst(failsAtNanos, slowNanos));
        try (Lease lease = lease(spec)) {
            assertThat(lease.model().failsFast()).as(name + ": the instance says what its entry says").isEqualTo(spec.failsFast());
            long t0 = System.nanoTime();
            CompletableFuture<Object> f = lease.model().submit(new Request(0, failing, SEED, SCALE));
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
                    .satisfies(e -> assertRootCause(rootCause(e), IllegalArgumentException.class, "This won't work!"));
            long tookMillis = (System.nanoTime() - t0) / 1_000_000;
            if (spec.failsFast()) assertThat(tookMillis).as(name + " fails fast").isLessThan(750);
            else assertThat(tookMillis).as(name + " waits for every call").isGreaterThanOrEqualTo(1_000);
        }
    }

    /** Seed 002's calls: posts fails after {@code failsAtNanos}, the three others answer after {@code slowNanos}. */
    private static Graph frameworksFailingFirst(long failsAtNanos, long slowNanos) {
        List<Step> steps = new ArrayList<>(frameworks().graph().steps());
        for (int i = 0; i < FrameworksUseCase.CALLS.size(); i++) {
            Step.Call c = (Step.Call) steps.get(i);
            steps.set(i, i == FrameworksUseCase.POSTS
                    ? new Step.Call(c.name(), c.inputs(), new Latency.Fixed(failsAtNanos), c.returns(), 1, FAILURE, 0)
                    : new Step.Call(c.name(), c.inputs(), new Latency.Fixed(slowNanos), c.returns(), 0, null, 0));
        }
        return new Graph(0L, steps);
    }

    @ParameterizedTest @MethodSource("entries")
    void submit_callTimeout_failsWithTimeoutLongBeforeTheDelay(String name) {
        ModelSpec spec = spec(name);
        // the call would take 10 s; its timeout is 20 s / 100 = 200 ms
        Graph timingOut = first(spec, Graph.singleCall(new Step.Call("slow", List.of(), new Latency.Fixed(SLOW_NANOS),
                        new Value.Constant(1L), 0, null, 20_000_000_000L)),
                frameworksWithPosts(c -> new Step.Call(c.name(), c.inputs(), new Latency.Fixed(SLOW_NANOS), c.returns(), 0, null, 20_000_000_000L)));
        try (Lease lease = lease(spec)) {
            long t0 = System.nanoTime();
            CompletableFuture<Object> f = lease.model().submit(new Request(0, timingOut, SEED, SCALE));
            assertThatThrownBy(() -> f.get(30, TimeUnit.SECONDS))
                    .satisfies(e -> assertRootCause(rootCause(e), TimeoutException.class, null));
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
        }
    }

    @ParameterizedTest @MethodSource("entries")
    void close_afterCancellingBlockedRequests_returnsPromptly(String name) {
        assumeTrue(!name.equals(MODEL_REFERENCE), "sequential runs on the caller; nothing to cancel");
        ModelSpec spec = spec(name);
        Graph slow = first(spec, Graph.singleCall(Step.Call.fixed("slow", SLOW_NANOS, 1L)),
                frameworksWithPosts(c -> new Step.Call(c.name(), c.inputs(), new Latency.Fixed(SLOW_NANOS), c.returns(), 0, null, 0)));
        SimulatedBackend backend = new SimulatedBackend();
        Model model = spec.create(new ModelContext(backend, 8));
        List<CompletableFuture<Object>> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) futures.add(model.submit(new Request(i, slow, SEED, SCALE)));
        futures.forEach(f -> f.cancel(true));
        long t0 = System.nanoTime();
        model.close();
        backend.close();
        assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(futures).allMatch(CompletableFuture::isCancelled);
    }

    @ParameterizedTest @MethodSource("entries")
    void run_throughDriver_leavesNoPlatformThreadBehind(String name) {
        ModelSpec spec = spec(name);
        Workload w = runs(spec, BuiltInWorkloads.taskGraph(false).graph())
                ? BuiltInWorkloads.taskGraph(false).withArrival(new Arrival.Batch(10)) : frameworks();
        // a first run starts what a library starts once per JVM (seen for rx-blocking when it ran first), which is no model's thread
        new InProcessDriver().runOnce(w, spec.text(), spec::create, RunSettings.DEFAULTS.withTimeScale(SCALE), Progress.NONE);
        RunResult r = new InProcessDriver().runOnce(w, spec.text(), spec::create,
                RunSettings.DEFAULTS.withTimeScale(SCALE), Progress.NONE);
        assertThat(r.counts().successes()).isEqualTo(10);
        if (w.name().equals(BuiltInWorkloads.taskGraph(false).name())) assertThat(r.answer()).isEqualTo(13L);
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

    private static Set<String> calls(List<CallInvocation> recorded) {
        Set<String> out = new HashSet<>();
        for (CallInvocation c : recorded) out.add(c.requestId() + "/" + c.call() + "/" + c.delayNanos());
        return out;
    }

    /**
     * A model of an entry on a backend that records its calls: the class's shared instance for an entry that starts a
     * server, kept open by {@link #close()}; a fresh one, closed with its backend, for every other entry.
     */
    private record Lease(Model model, SimulatedBackend backend, boolean shared) implements AutoCloseable {
        @Override public void close() {
            if (shared) return;
            model.close();
            backend.close();
        }
    }

    /** The shared instances, by entry, and the threads each started, which must be gone once it is closed. */
    private static final java.util.Map<String, Lease> SHARED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<String, Set<Thread>> SHARED_THREADS = new java.util.concurrent.ConcurrentHashMap<>();

    private static boolean startsServer(ModelSpec spec) { return spec.text().startsWith("jaxrs-"); }

    private static Lease lease(ModelSpec spec) {
        if (!startsServer(spec)) {
            SimulatedBackend backend = new SimulatedBackend(true);
            return new Lease(spec.create(new ModelContext(backend, 8)), backend, false);
        }
        return SHARED.computeIfAbsent(spec.text(), name -> {
            Set<Thread> before = Thread.getAllStackTraces().keySet();
            SimulatedBackend backend = new SimulatedBackend(true);
            Lease lease = new Lease(spec.create(new ModelContext(backend, 8)), backend, true);
            Set<Thread> started = new HashSet<>(Thread.getAllStackTraces().keySet());
            started.removeAll(before);
            SHARED_THREADS.put(name, started);
            return lease;
        });
    }

    /**
     * Closes the shared instances: none of the platform threads each started is alive afterwards (bounded wait), nor
     * any thread of the kinds they start on demand (Tomcat's request threads, the HTTP client's), which no other test
     * of this class starts.
     */
    @AfterAll
    static void closeShared() throws InterruptedException {
        for (var e : SHARED.entrySet()) {
            e.getValue().model().close();
            e.getValue().backend().close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> alive;
        do {
            Set<Thread> suspects = new HashSet<>();
            SHARED_THREADS.values().forEach(suspects::addAll);
            for (Thread t : Thread.getAllStackTraces().keySet())
                if (t.getName().startsWith("request-tomcat-") || t.getName().startsWith("HttpClient-")) suspects.add(t);
            alive = suspects.stream().filter(Thread::isAlive).filter(t -> !InProcessDriver.jvmOwned(t)).map(Thread::getName).sorted().toList();
            if (alive.isEmpty()) break;
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        SHARED.clear();
        SHARED_THREADS.clear();
        assertThat(alive).as("threads a shared instance started, alive after its close").isEmpty();
    }
}
