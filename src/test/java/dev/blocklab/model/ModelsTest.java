package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelsTest {

    @Test
    void parse_rejectsBadNamesWithOneClearLine() {
        assertThatThrownBy(() -> Models.parse("fixd:8")).hasMessageStartingWith("unknown model 'fixd:8'; did you mean 'fixed'? (known: sequential, fixed:N");
        assertThatThrownBy(() -> Models.parse("forkjoin-managed:99999999999")).hasMessageContaining("threads, got 99999999999")
                .hasMessageNotContaining("not a whole number");
        assertThatThrownBy(() -> Models.parse("fixed:-99999999999")).hasMessageContaining("needs at least 1 thread, got -99999999999");
        assertThatThrownBy(() -> Models.parse("fixed")).hasMessageContaining("needs a thread count");
        assertThatThrownBy(() -> Models.parse("fixed:0")).hasMessageContaining("at least 1 thread, got 0");
        assertThatThrownBy(() -> Models.parse("fixed:-3")).hasMessageContaining("got -3");
        assertThatThrownBy(() -> Models.parse("fixed:x")).hasMessageContaining("'x' is not a whole number");
        assertThatThrownBy(() -> Models.parse("virtual:4")).hasMessageContaining("takes no size");
    }

    @Test
    void predict_followsPoolSizes() {
        Demand hundredCalls = new Demand(100, 1_000_000_000L, 1_000_000_000L, 1_000_000_000L, 1, 0, 2);
        try (SimulatedBackend b = new SimulatedBackend()) {
            assertThat(predictSeconds("sequential", b, hundredCalls)).isEqualTo(100);
            assertThat(predictSeconds("fixed:8", b, hundredCalls)).isEqualTo(13);
            assertThat(predictSeconds("forkjoin:16", b, hundredCalls)).isEqualTo(7);
            assertThat(predictSeconds("forkjoin-managed:16", b, hundredCalls)).isEqualTo(1);
            assertThat(predictSeconds("cf-nonblocking:8", b, hundredCalls)).isEqualTo(1);
            assertThat(predictSeconds("cf-blocking:8", b, hundredCalls)).isEqualTo(13);
            assertThat(predictSeconds("virtual", b, hundredCalls)).isEqualTo(1);
        }
    }

    private static double predictSeconds(String spec, SimulatedBackend b, Demand d) {
        try (Model m = Models.create(spec, new ModelContext(b))) {
            return m.predict(d).nanos() / 1e9;
        }
    }

    @Test
    void managedForkJoin_compensatesBlockedWorkersUpToTheCap() throws Exception {
        // 40 blocking calls of 200 ms on a pool of 2 with 6 spares: 8 at a time, so 5 waves (~1 s), not 20
        var graph = dev.blocklab.workload.Graph.singleCall(dev.blocklab.workload.Step.Call.fixed("c", 200_000_000L, 1L));
        try (SimulatedBackend b = new SimulatedBackend(); Model m = Models.create("forkjoin-managed:2", new ModelContext(b, 6))) {
            long t0 = System.nanoTime();
            var futures = new java.util.ArrayList<java.util.concurrent.CompletableFuture<Object>>();
            for (int i = 0; i < 40; i++) futures.add(m.submit(new dev.blocklab.workload.Request(i, graph, 1, 1)));
            for (var f : futures) f.get(30, java.util.concurrent.TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(seconds).isGreaterThanOrEqualTo(0.95).isLessThan(3.5);
        }
    }
}
