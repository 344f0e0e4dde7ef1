package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

class FutureStyleTest {
    private static final long MS = 1_000_000L;

    @ParameterizedTest @ValueSource(strings = {"cf-nonblocking:2", "cf-blocking:2"})
    void submit_requestEndedFromOutside_startsNoFurtherCalls(String spec) throws Exception {
        // first (50 ms), then second, then a combine: the request is failed from outside while first runs
        Graph g = new Graph(0L, List.of(Step.Call.fixed("first", 50 * MS, 1L),
                new Step.Call("second", List.of("first"), new Latency.Fixed(MS), new Value.Sum(0), 0, null, 0),
                new Step.Combine("answer", List.of("second"), new Value.Sum(0))));
        try (SimulatedBackend backend = new SimulatedBackend(true); Model model = Models.create(spec, new ModelContext(backend))) {
            CompletableFuture<Object> f = model.submit(new Request(0, g, 1, 1));
            f.completeExceptionally(new TimeoutException("request timed out"));
            Thread.sleep(200); // first has long completed: without cancellation, second would have started
            // first may not even have started (its hand-off to the pool can lose the race with the cancellation)
            assertThat(backend.recordedCalls()).extracting(CallInvocation::call).doesNotContain("second");
        }
    }
}
