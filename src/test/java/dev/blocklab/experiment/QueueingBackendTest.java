package dev.blocklab.experiment;

import dev.blocklab.workload.CallInvocation;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One worker: a second call waits for the first, a caller's timeout counts the queue, a call given up never reaches a worker. */
class QueueingBackendTest {
    private static final long MS = 1_000_000L;

    private static CallInvocation call(long id, long delayNanos, long timeoutNanos) {
        return new CallInvocation("c", id, delayNanos, timeoutNanos, id, null);
    }

    @Test
    void callAsync_oneWorker_queuesInOrderAndTheTimeoutCountsTheQueue() throws Exception {
        try (QueueingBackend backend = new QueueingBackend(1)) {
            long t0 = System.nanoTime();
            CompletableFuture<Object> first = backend.callAsync(call(1, 2_000 * MS, 0));
            CompletableFuture<Object> second = backend.callAsync(call(2, 10 * MS, 0));
            // 10 ms of work, but it waits behind the first call's 2 s: its 100 ms timeout passes in the queue
            CompletableFuture<Object> third = backend.callAsync(call(3, 10 * MS, 100 * MS));
            assertThatThrownBy(() -> third.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TimeoutException.class);
            assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo(2L);
            assertThat(System.nanoTime() - t0).as("the second waited for the first").isGreaterThanOrEqualTo(2_000 * MS);
            assertThat(backend.callsStarted()).isEqualTo(3);
            assertThat(backend.callsServed()).as("the timed-out call never reached the worker").isEqualTo(2);
        }
    }

    @Test
    void cancel_queuedCall_leavesTheQueue_runningCall_freesItsWorker() throws Exception {
        try (QueueingBackend backend = new QueueingBackend(1)) {
            CompletableFuture<Object> running = backend.callAsync(call(1, 60_000 * MS, 0));
            CompletableFuture<Object> queued = backend.callAsync(call(2, 10 * MS, 0));
            CompletableFuture<Object> next = backend.callAsync(call(3, 10 * MS, 0));
            queued.cancel(true);
            running.cancel(true);   // the worker stops at once and takes the next call still waiting
            assertThat(next.get(5, TimeUnit.SECONDS)).isEqualTo(3L);
            assertThat(backend.callsServed()).isEqualTo(2);
        }
    }
}
