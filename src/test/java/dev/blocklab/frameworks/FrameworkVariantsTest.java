package dev.blocklab.frameworks;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.model.Model;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** What only variants do: merges on the kinds of thread the report shows; the contract over every variant is ModelContractTest. */
class FrameworkVariantsTest {
    private static final long SCALE = 100;
    private static final long SEED = 42;
    private static final int REQUESTS = 6;
    private static final Workload WORKLOAD = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(REQUESTS));

    /** What one variant did with {@link #REQUESTS} concurrent requests. */
    record Observed(List<String> answers, Map<Long, List<CallInvocation>> callsByRequest, Map<String, Long> places) {}

    static Observed observe(FrameworkVariants.Variant variant, Workload workload) throws Exception {
        FrameworksUseCase useCase = new FrameworksUseCase(1_000, 500);
        try (SimulatedBackend backend = new SimulatedBackend(true); Model model = variant.create(backend, useCase)) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (long id = 0; id < REQUESTS; id++) futures.add(model.submit(new Request(id, workload.graph(), SEED, SCALE)));
            List<String> answers = new ArrayList<>();
            for (CompletableFuture<Object> f : futures) answers.add((String) f.get(20, TimeUnit.SECONDS));
            Map<Long, List<CallInvocation>> byRequest = backend.recordedCalls().stream()
                    .collect(Collectors.groupingBy(CallInvocation::requestId, TreeMap::new, Collectors.toList()));
            byRequest.values().forEach(list -> list.sort(java.util.Comparator.comparing(CallInvocation::call)));
            return new Observed(answers, byRequest, useCase.cpuPlaces());
        }
    }

    private static List<FrameworkVariants.Variant> available() {
        List<FrameworkVariants.Variant> all = FrameworkVariants.all(FrameworkVariants.ARTICLE_POOL_200MS);
        assertThat(all).hasSizeGreaterThanOrEqualTo(14);
        return all.stream().filter(v -> v.unavailable().isEmpty()).toList();
    }

    /** Answers, calls, failures, cancellation and threads of every variant: {@code ModelContractTest}, over the registry. */
    @Test
    void submit_everyVariantRunsTwoMergesPerRequest_andRequestsPickDifferentUsers() throws Exception {
        Observed reference = observe(FrameworkVariants.named("sequential", 16), WORKLOAD);
        assertThat(new HashSet<>(reference.answers())).as("different request ids pick different users").hasSizeGreaterThan(1);
        reference.callsByRequest().values().forEach(calls ->
                assertThat(calls).extracting(CallInvocation::call).containsExactly("albums", "comments", "photos", "posts"));
        for (FrameworkVariants.Variant variant : available()) {
            Observed seen = observe(variant, WORKLOAD);
            assertThat(seen.places().values().stream().mapToLong(Long::longValue).sum())
                    .as(variant.name() + " ran two merges per request").isEqualTo(2L * REQUESTS);
        }
    }

    @Test
    void submit_eventLoopVariantRunsEveryMergeOnAnEventLoop() throws Exception {
        Observed seen = observe(FrameworkVariants.named("vertx-event-loop", 16), WORKLOAD);
        assertThat(seen.places()).isEqualTo(Map.of("event loop", 2L * REQUESTS));
    }

    @Test
    void all_reportsMissingLibraryAsUnavailableAndRefusesToCreate() {
        FrameworkVariants.Variant missing = new FrameworkVariants.Variant("x", "x", java.util.Optional.of("lib missing"), SequentialVariant::new,
                SequentialVariant::formula, true);
        try (SimulatedBackend backend = new SimulatedBackend()) {
            try {
                missing.create(backend, new FrameworksUseCase(1, 1));
                fail("created an unavailable variant");
            } catch (UnsupportedOperationException e) {
                assertThat(e).hasMessageContaining("unavailable: lib missing");
            }
        }
    }

    @Test
    void threadKind_namesTheKindsTheReportShows() {
        assertThat(FrameworksUseCase.threadKind(Thread.ofVirtual().unstarted(() -> {}))).isEqualTo("virtual");
        assertThat(FrameworksUseCase.threadKind(Thread.ofPlatform().name("request-7").unstarted(() -> {}))).isEqualTo("request thread");
        assertThat(FrameworksUseCase.threadKind(Thread.ofPlatform().name("frameworks-3-pekko.actor.default-dispatcher-5").unstarted(() -> {}))).isEqualTo("actor dispatcher");
        assertThat(FrameworksUseCase.threadKind(Thread.ofPlatform().name("rx-io-12").unstarted(() -> {}))).isEqualTo("rx-io");
        assertThat(FrameworksUseCase.threadKind(Thread.ofPlatform().name("vert.x-eventloop-thread-1").unstarted(() -> {}))).isEqualTo("event loop");
    }

    /** The names of threads alive that were not in {@code before} (nor the JVM's own), after waiting up to {@code seconds} for them to end. */
    static List<String> threadsLeft(Set<Thread> before, int seconds) throws InterruptedException {
        List<String> left = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        do {
            left.clear();
            for (Thread t : Thread.getAllStackTraces().keySet())
                if (!before.contains(t) && t.isAlive() && !InProcessDriver.jvmOwned(t)) left.add(t.getName());
            if (left.isEmpty()) break;
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return left;
    }

    @org.junit.jupiter.api.Test
    void predict_batchLargerThanThePoolServes_isBoundByThePoolsThreadTime() throws Exception {
        // 100 requests of four independent calls (200, 20, 200, 20 ms: 440 ms of calls, 200 ms critical path)
        long ms = 1_000_000L;
        dev.blocklab.model.Demand batch = new dev.blocklab.model.Demand(100, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2);
        dev.blocklab.model.Demand alone = new dev.blocklab.model.Demand(1, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2);
        try (SimulatedBackend backend = new SimulatedBackend(true)) {
            for (String name : List.of("invokeall:16", "supplyasync:16", "rx-blocking:16", "cf-suspended:16")) {
                try (Model model = FrameworkVariants.named(name, 16).create(backend, new FrameworksUseCase(1, 1))) {
                    // 16 threads work through 100 x 440 ms of calls: 2,750 ms
                    assertThat(model.predict(batch).nanos()).as(name).isEqualTo(2_750 * ms);
                    assertThat(model.predict(batch).basis()).as(name).startsWith("100 requests x 440ms of calls / 16 I/O threads");
                    assertThat(model.predict(alone).nanos()).as(name).isEqualTo(200 * ms);
                }
            }
            try (Model reactor = FrameworkVariants.named("reactor", 16).create(backend, new FrameworksUseCase(1, 1))) {
                assertThat(reactor.predict(batch).nanos()).as("no thread waits: every request overlaps").isEqualTo(200 * ms);
            }
        }
    }

    /**
     * A variant's formula predicts without starting it (no Tomcat, actor system, ring or pool: not one thread), and
     * gives what its registry entry gives, whose figures {@code ModelContractTest} holds to a started instance's.
     */
    @Test
    void formula_everyVariant_predictsAsItsEntry_withoutStartingIt() throws Exception {
        long ms = 1_000_000L;
        List<dev.blocklab.model.Demand> demands = List.of(
                new dev.blocklab.model.Demand(100, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2),
                new dev.blocklab.model.Demand(1, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2));
        List<FrameworkVariants.Variant> every = java.util.stream.Stream.concat(
                FrameworkVariants.all(16).stream(), FrameworkVariants.servlet(16).stream()).toList();
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        Map<String, List<dev.blocklab.model.Prediction>> predicted = new TreeMap<>();
        for (FrameworkVariants.Variant v : every)
            predicted.put(v.name(), demands.stream().map(d -> v.formula().apply(d)).toList());
        assertThat(threadsLeft(before, 0)).as("threads started by predicting every variant").isEmpty();

        for (FrameworkVariants.Variant v : every) {
            if (v.unavailable().isPresent()) continue;
            var entry = dev.blocklab.registry.Registry.parse(FrameworkVariants.runName(v.name()));
            assertThat(predicted.get(v.name())).as(v.name())
                    .isEqualTo(demands.stream().map(d -> entry.predict(d, 0)).toList());
            assertThat(v.failsFast()).as(v.name()).isEqualTo(entry.failsFast());
        }
    }

    /** The threads the frameworks report sets beside the article's Disruptor pools (11 and 12) are the ones started. */
    @Test
    void disruptorThreads_areTheHandlerThreadsEachVariantStarts() throws Exception {
        try (SimulatedBackend backend = new SimulatedBackend()) {
            for (String family : List.of("disruptor-stages", "disruptor-latch", "disruptor-async")) {
                Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
                try (Model model = FrameworkVariants.named(family, 16).create(backend, new FrameworksUseCase(1, 1))) {
                    long started = Thread.getAllStackTraces().keySet().stream()
                            .filter(t -> !before.contains(t) && t.isAlive() && t.getName().startsWith("disruptor")).count();
                    assertThat(started).as(family).isEqualTo(FrameworkVariants.disruptorThreads(family));
                }
            }
        }
        assertThat(FrameworkVariants.disruptorThreads("disruptor-stages")).as("the article's blocked-thread Disruptor row").isEqualTo(11);
        assertThat(FrameworkVariants.disruptorThreads("reactor")).isZero();
    }

    @org.junit.jupiter.api.Test
    void disruptorStagesFormula_aBatchCrossesTheStagesInWavesOfItsWorkers() {
        long ms = 1_000_000L;
        dev.blocklab.model.Demand batch = new dev.blocklab.model.Demand(100, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2);
        dev.blocklab.model.Demand alone = new dev.blocklab.model.Demand(1, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2);
        // two workers a stage: 50 waves of one request's 440 ms of calls (was 440 ms, one request alone, for any batch)
        assertThat(DisruptorStagesVariant.formula(batch).nanos()).isEqualTo(50 * 440 * ms);
        assertThat(DisruptorStagesVariant.formula(batch).basis()).startsWith("ceil(100 / 2) x 440ms: the four calls one after another");
        assertThat(DisruptorStagesVariant.formula(alone).nanos()).isEqualTo(440 * ms);
        // a stage passes a batch on only once it is done: under open load a request leaves with the backlog it was taken in
        assertThat(DisruptorStagesVariant.formula(alone).requeues()).isEqualTo(1);
    }

    @org.junit.jupiter.api.Test
    void suspendedFormula_mergesThenJoinQueueBehindTheCalls_twiceAfterTheCalls() {
        long ms = 1_000_000L;
        dev.blocklab.model.Demand alone = new dev.blocklab.model.Demand(1, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2);
        assertThat(SuspendedFuturesVariant.formula(16, alone).requeues()).isEqualTo(2);
        assertThat(SuspendedFuturesVariant.formula(16, alone).nanos()).isEqualTo(200 * ms);
        assertThat(FrameworkVariants.named("jaxrs-cf-suspended:16", 16).formula().apply(alone).requeues()).isEqualTo(2);
        // invokeAll merges on the request thread, which waits for its own calls: it leaves when they end
        assertThat(InvokeAllVariant.formula(16, alone).requeues()).isZero();
        assertThat(FrameworkVariants.named("jaxrs-invokeall:16", 16).formula().apply(alone).requeues()).isZero();
    }

    /**
     * A {@code jaxrs-} variant runs its in-process twin's code: its prediction has the twin's figures (time, path,
     * requeues) and its requests end as the twin's do, read from the twin, not from the resource's name.
     */
    @Test
    void servlet_everyJaxrsVariant_predictsAndFailsAsItsInProcessTwin() {
        long ms = 1_000_000L;
        List<dev.blocklab.model.Demand> demands = List.of(
                new dev.blocklab.model.Demand(100, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2),
                new dev.blocklab.model.Demand(1, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2));
        List<FrameworkVariants.Variant> servlet = FrameworkVariants.servlet(16);
        assertThat(servlet).hasSize(4);
        for (FrameworkVariants.Variant jaxrs : servlet) {
            FrameworkVariants.Variant twin = FrameworkVariants.named(jaxrs.name().substring(TomcatJerseyVariant.PREFIX.length()), 16);
            assertThat(jaxrs.failsFast()).as(jaxrs.name()).isEqualTo(twin.failsFast());
            for (dev.blocklab.model.Demand d : demands) {
                dev.blocklab.model.Prediction onTomcat = jaxrs.formula().apply(d), inProcess = twin.formula().apply(d);
                assertThat(List.of(onTomcat.nanos(), onTomcat.path(), onTomcat.requeues())).as(jaxrs.name() + " " + d)
                        .isEqualTo(List.of(inProcess.nanos(), inProcess.path(), inProcess.requeues()));
                assertThat(onTomcat.basis()).as(jaxrs.name()).startsWith(inProcess.basis()).endsWith("plus an HTTP round trip");
            }
        }
        // and the figures themselves, one request alone (440 ms of calls, 200 ms critical path)
        Map<String, FrameworkVariants.Variant> byName = new TreeMap<>();
        servlet.forEach(v -> byName.put(v.name(), v));
        dev.blocklab.model.Demand alone = demands.getLast();
        assertThat(byName.get("jaxrs-sequential").formula().apply(alone).nanos()).isEqualTo(440 * ms);   // one call after another
        assertThat(byName.get("jaxrs-sequential").failsFast()).isTrue();                                  // stops at its first failure
        assertThat(byName.get("jaxrs-cf-suspended:16").formula().apply(alone).nanos()).isEqualTo(200 * ms);
        assertThat(byName.get("jaxrs-cf-suspended:16").formula().apply(alone).requeues()).isEqualTo(2);  // two merges on the I/O pool
        assertThat(byName.get("jaxrs-invokeall:16").formula().apply(alone).requeues()).isZero();
        assertThat(byName.get("jaxrs-invokeall:16").failsFast()).isFalse();                              // invokeAll waits for every call
    }
}
