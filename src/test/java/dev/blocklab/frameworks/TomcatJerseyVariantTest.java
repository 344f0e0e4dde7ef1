package dev.blocklab.frameworks;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.model.Model;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract over the JAX-RS variants in Tomcat: the same answers and calls as their in-process counterparts,
 * blocking resources merging on Tomcat's request threads and the suspended one on its I/O pool, failures reaching
 * the client with their root cause, no thread left after close.
 */
class TomcatJerseyVariantTest {
    private static final long SCALE = 100;
    private static final long SEED = 42;
    private static final int REQUESTS = 6;
    private static final Workload WORKLOAD = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(REQUESTS));

    private record Observed(List<String> answers, Map<Long, List<String>> callsByRequest, Map<String, Long> places) {}

    private static Observed observe(FrameworkVariants.Variant variant) throws Exception {
        FrameworksUseCase useCase = new FrameworksUseCase(1_000, 500);
        try (SimulatedBackend backend = new SimulatedBackend(true); Model model = variant.create(backend, useCase)) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (long id = 0; id < REQUESTS; id++) futures.add(model.submit(new Request(id, WORKLOAD.graph(), SEED, SCALE)));
            List<String> answers = new ArrayList<>();
            for (CompletableFuture<Object> f : futures) answers.add((String) f.get(20, TimeUnit.SECONDS));
            Map<Long, List<String>> byRequest = backend.recordedCalls().stream().collect(Collectors.groupingBy(
                    CallInvocation::requestId, TreeMap::new,
                    Collectors.mapping(c -> c.call() + "/" + c.delayNanos(), Collectors.collectingAndThen(Collectors.toList(), l -> l.stream().sorted().toList()))));
            return new Observed(answers, byRequest, useCase.cpuPlaces());
        }
    }

    @Test
    void submit_answersAsTheInProcessVariantWithTheSameCalls_mergingWhereTheArticleDid() throws Exception {
        List<FrameworkVariants.Variant> servlet = FrameworkVariants.servlet(16);
        assertThat(servlet).extracting(FrameworkVariants.Variant::name)
                .containsExactly("jaxrs-sequential", "jaxrs-invokeall:16", "jaxrs-supplyasync:16", "jaxrs-cf-suspended:16");
        for (FrameworkVariants.Variant variant : servlet) {
            assertThat(variant.unavailable()).isEmpty();
            Observed inProcess = observe(FrameworkVariants.named(variant.name().substring(TomcatJerseyVariant.PREFIX.length()), 16));
            Observed seen = observe(variant);
            assertThat(seen.answers()).as(variant.name() + " answers, byte for byte").isEqualTo(inProcess.answers());
            assertThat(seen.callsByRequest()).as(variant.name() + " calls").isEqualTo(inProcess.callsByRequest()).hasSize(REQUESTS);
            String mergedOn = variant.name().startsWith("jaxrs-cf-suspended") ? "io" : "request thread";
            assertThat(seen.places()).as(variant.name() + " merges").isEqualTo(Map.of(mergedOn, 2L * REQUESTS));
        }
    }

    @Test
    void submit_failingCall_answers500WithTheRootCause() throws Exception {
        Workload failing = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, FrameworksUseCase.FAST_DELAY_NANOS,
                new Arrival.Batch(1), "photos", new Step.FailureSpec("java.io.FileNotFoundException", "photos service down"));
        for (String name : List.of("jaxrs-sequential", "jaxrs-cf-suspended:16")) {
            try (SimulatedBackend backend = new SimulatedBackend();
                 Model model = FrameworkVariants.named(name, 16).create(backend, new FrameworksUseCase(100, 100))) {
                CompletableFuture<Object> f = model.submit(new Request(1, failing.graph(), SEED, SCALE));
                assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).as(name)
                        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IOException.class)
                        .hasMessageContaining("HTTP 500").hasMessageContaining("java.io.FileNotFoundException: photos service down");
            }
        }
    }

    @Test
    void close_stopsTomcatAndEveryThreadItStarted() throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        try (SimulatedBackend backend = new SimulatedBackend()) {
            Model model = FrameworkVariants.named("jaxrs-cf-suspended:16", 16).create(backend, new FrameworksUseCase(100, 100));
            model.submit(new Request(0, WORKLOAD.graph(), SEED, SCALE)).get(20, TimeUnit.SECONDS);
            model.close();
        }
        List<String> left = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        do {
            left.clear();
            for (Thread t : Thread.getAllStackTraces().keySet())
                if (!before.contains(t) && t.isAlive() && !t.getName().startsWith("ForkJoinPool.commonPool-")
                        && !t.getClass().getName().equals("jdk.internal.misc.CarrierThread")) left.add(t.getName());
            if (left.isEmpty()) break;
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        assertThat(left).as("threads alive after close").isEmpty();
    }
}
