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

    @Test
    void cfBlockingFormula_failureCancelsTheCallsAlongside_holdsTheirThreadsOnlyUntilIt() {
        long ms = 1_000_000L;
        // reproduce failures: profile 30 ms, hang 200 ms and audit, failing at 2 ms; the model fails fast, so a request's
        // calls in step order stop at the failure (232 ms) and its critical path ends there (2 ms)
        Demand alone = new Demand(1, 232 * ms, 2 * ms, 2 * ms, 3, 0, 2);
        Demand hundred = new Demand(100, 232 * ms, 2 * ms, 2 * ms, 3, 0, 2);
        // each of the three calls holds its thread 2 ms, until the failure interrupts it (was 232 ms / 3 = 77.3 ms each)
        assertThat(CfBlockingModel.formula(8, alone).nanos()).isEqualTo(2 * ms);
        assertThat(CfBlockingModel.formula(8, hundred).nanos()).isEqualTo(38 * 2 * ms);   // ceil(300 / 8) x 2 ms
        assertThat(CfBlockingModel.formula(8, hundred).basis())
                .isEqualTo("max(critical path 2ms, ceil(100 x 3 calls / 8) x 2ms (each call held until the first failure cancels it, at 2ms))");
        // without a failure every call runs to its end: 100 x 440 ms of calls on 8 threads, as before
        Demand noFailure = new Demand(100, 440 * ms, 200 * ms, 200 * ms, 4, 0, 2);
        assertThat(CfBlockingModel.formula(8, noFailure).nanos()).isEqualTo(50 * 110 * ms);
        assertThat(CfBlockingModel.formula(8, noFailure).basis()).isEqualTo("max(critical path 200ms, ceil(100 x 4 calls / 8) x 110ms)");
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
