package dev.blocklab.frameworks;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.model.Model;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

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

    @Test
    void submit_answersAsTheInProcessVariantWithTheSameCalls_mergingWhereTheArticleDid() throws Exception {
        List<FrameworkVariants.Variant> servlet = FrameworkVariants.servlet(16);
        assertThat(servlet).extracting(FrameworkVariants.Variant::name)
                .containsExactly("jaxrs-sequential", "jaxrs-invokeall:16", "jaxrs-supplyasync:16", "jaxrs-cf-suspended:16");
        for (FrameworkVariants.Variant variant : servlet) {
            assertThat(variant.unavailable()).isEmpty();
            var inProcess = FrameworkVariantsTest.observe(FrameworkVariants.named(variant.name().substring(TomcatJerseyVariant.PREFIX.length()), 16), WORKLOAD);
            var seen = FrameworkVariantsTest.observe(variant, WORKLOAD);
            assertThat(seen.answers()).as(variant.name() + " answers, byte for byte").isEqualTo(inProcess.answers());
            assertThat(seen.callsByRequest()).as(variant.name() + " calls").isEqualTo(inProcess.callsByRequest()).hasSize(REQUESTS);
            String mergedOn = variant.name().startsWith("jaxrs-cf-suspended") ? "io" : "request thread";
            assertThat(seen.places()).as(variant.name() + " merges").isEqualTo(Map.of(mergedOn, 2L * REQUESTS));
        }
        // a variant without an I/O pool is made without one, whatever pool size the list was asked for
        try (SimulatedBackend backend = new SimulatedBackend(); Model sequential = servlet.getFirst().create(backend, new FrameworksUseCase(100, 100))) {
            assertThat(sequential.name()).isEqualTo("jaxrs-sequential");
        }
    }

    @Test
    void submit_failingCall_answers500WithTheRootCause_rebuiltAsTheSameFailure() throws Exception {
        assertThat(TomcatJerseyVariant.failure(503, java.net.URI.create("http://127.0.0.1:1/x"), "busy"))
                .isInstanceOf(IOException.class).hasMessageContaining("HTTP 503").hasMessageContaining("busy");
        Workload failing = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, FrameworksUseCase.FAST_DELAY_NANOS,
                new Arrival.Batch(1), "photos", new Step.FailureSpec("java.io.FileNotFoundException", "photos service down"));
        for (String name : List.of("jaxrs-sequential", "jaxrs-cf-suspended:16")) {
            try (SimulatedBackend backend = new SimulatedBackend();
                 Model model = FrameworkVariants.named(name, 16).create(backend, new FrameworksUseCase(100, 100))) {
                CompletableFuture<Object> f = model.submit(new Request(1, failing.graph(), SEED, SCALE));
                assertThatThrownBy(() -> f.get(20, TimeUnit.SECONDS)).as(name)
                        .isInstanceOf(ExecutionException.class).cause().isExactlyInstanceOf(java.io.FileNotFoundException.class)
                        .hasMessage("photos service down");
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
        assertThat(FrameworkVariantsTest.threadsLeft(before, 5)).as("threads alive after close").isEmpty();
    }
}
