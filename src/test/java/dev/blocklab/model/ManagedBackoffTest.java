package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code forkjoin-managed} waits a retry's backoff inside a ManagedBlocker, as it makes its calls: on a pool of one
 * worker, a request waiting 30 s before its retry leaves room (a spare thread) for the next request, which would
 * otherwise wait those 30 s behind it (half of it is the bound: a loaded machine stalls a JVM for seconds).
 */
class ManagedBackoffTest {
    private static final long BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void retryBackoff_onTheOnlyWorker_doesNotHoldUpTheNextRequest() throws Exception {
        Step.Call failing = new Step.Call("flaky", List.of(), new Latency.Fixed(0), new Value.Constant(1L), 1.0, null, 0)
                .withAttempts(new Step.Attempts.Retry(2, BACKOFF_NANOS));
        try (SimulatedBackend backend = new SimulatedBackend();
             ManagedForkJoinModel model = new ManagedForkJoinModel(backend, 1, 4)) {
            CompletableFuture<Object> retrying = model.submit(new Request(0, Graph.singleCall(failing), 7, 1));
            Thread.sleep(200);   // its first attempt has failed: the worker waits out the backoff
            assertThat(retrying).isNotDone();
            long t0 = System.nanoTime();
            Object answer = model.submit(new Request(1, Graph.singleCall(Step.Call.fixed("fast", 0, 9L)), 7, 1)).get(20, TimeUnit.SECONDS);
            assertThat(answer).isEqualTo(9L);
            assertThat(System.nanoTime() - t0).as("the next request ran beside the backoff, not after it")
                    .isLessThan(BACKOFF_NANOS / 2);
        }
    }
}
