package dev.blocklab.recorder;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.result.FailureScore;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Step;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class FailureMeterTest {
    private static final long MS = 1_000_000L;

    private static CallInvocation failing(long requestId) {
        return new CallInvocation("flaky", requestId, 0, 0, null, Step.FailureSpec.DEFAULT);
    }

    private static CallInvocation hanging(long requestId) {
        return new CallInvocation("hang", requestId, 60_000 * MS, 0, 1L, null);
    }

    @Test
    void score_failedRequestWithACancelledSibling_timeToFailHonouredAndOrphanTime() {
        AtomicLong clock = new AtomicLong(1_000);
        try (FailureMeter meter = new FailureMeter(new SimulatedBackend(), clock::get)) {
            CompletableFuture<Object> hang = meter.callAsync(hanging(1));
            clock.set(2_000);
            assertThat(catchThrowable(() -> meter.callAsync(failing(1)).join())).isNotNull();   // first failure at 2,000
            CompletableFuture<Object> request = new CompletableFuture<>();
            meter.watch(1, request);
            clock.set(2_500);
            request.completeExceptionally(new IllegalStateException("downstream failure"));   // the request ends at 2,500
            clock.set(3_000);
            hang.cancel(true);   // the sibling is stopped 500 ns after its request ended

            FailureScore score = meter.score(meter.callsInFlight());
            assertThat(score.failedRequests()).isEqualTo(1);
            assertThat(score.meanTimeToFailMillis()).isEqualTo(500 / 1e6);
            assertThat(score.cancellationsRequested()).isEqualTo(1);
            assertThat(score.cancellationsHonoured()).isEqualTo(1);
            assertThat(score.orphanedCalls()).isEqualTo(1);
            assertThat(score.orphanBackendMillis()).isEqualTo(500 / 1e6);
            assertThat(score.callsLeftRunning()).isZero();
        }
    }

    @Test
    void score_callStillRunningAfterItsRequestSucceeded_mustStop_likeAHedgesLoser() {
        AtomicLong clock = new AtomicLong(1_000);
        try (FailureMeter meter = new FailureMeter(new SimulatedBackend(), clock::get)) {
            CompletableFuture<Object> loser = meter.callAsync(hanging(1));
            CompletableFuture<Object> request = new CompletableFuture<>();
            meter.watch(1, request);
            clock.set(2_000);
            request.complete("the winner's answer");   // the request succeeds with its loser still running
            clock.set(2_300);
            loser.cancel(true);                          // and the loser is stopped 300 ns later

            FailureScore score = meter.score(meter.callsInFlight());
            assertThat(score.failedRequests()).isZero();
            assertThat(score.orphanedCalls()).isEqualTo(1);
            assertThat(score.orphanBackendMillis()).isEqualTo(300 / 1e6);
            assertThat(score.cancellationsRequested()).as("a loser left running must stop").isEqualTo(1);
            assertThat(score.cancellationsHonoured()).isEqualTo(1);
        }
    }

    @Test
    void watch_returnsAStageThatSeesTheRequestInTheScore() {
        // a dependent of the request's own future registered after the watch runs before the meter's (the future
        // runs its dependents last first): one that counted the run done there scored 19 of 20 failed requests
        try (FailureMeter meter = new FailureMeter(new SimulatedBackend(), () -> 1_000)) {
            for (int id = 0; id < 20; id++) {
                CompletableFuture<Object> request = new CompletableFuture<>();
                long before = meter.score(0).failedRequests();
                AtomicLong seen = new AtomicLong(-1);
                meter.watch(id, request).whenComplete((v, e) -> seen.set(meter.score(0).failedRequests()));
                request.whenComplete((v, e) -> { });   // another dependent, registered later: runs first
                request.completeExceptionally(new IllegalStateException("downstream failure"));
                assertThat(seen.get()).as("request %d", id).isEqualTo(before + 1);
            }
        }
    }

    @Test
    void score_callStartedAfterItsFailedRequestEnded_isAnOrphan_evenOnceTheRequestsRecordIsGone() {
        // a queued request's work that starts after its deadline: the request ended with no call running, so its
        // record was dropped; the late call must still count as an orphan (it once counted as a normal call)
        AtomicLong clock = new AtomicLong(1_000);
        try (FailureMeter meter = new FailureMeter(new SimulatedBackend(), clock::get)) {
            long late = 70_000;   // past the first block of ids
            meter.watch(late, CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("deadline")));
            meter.watch(late + 1, CompletableFuture.completedFuture("ok"));
            clock.set(2_000);
            CompletableFuture<Object> orphan = meter.callAsync(hanging(late));
            CompletableFuture<Object> other = meter.callAsync(hanging(late + 2));   // a request still going
            clock.set(2_400);
            orphan.cancel(true);
            other.cancel(true);

            FailureScore score = meter.score(meter.callsInFlight());
            assertThat(score.orphanedCalls()).isEqualTo(1);
            assertThat(score.orphanBackendMillis()).isEqualTo(400 / 1e6);
            assertThat(score.cancellationsRequested()).isEqualTo(1);
            assertThat(score.cancellationsHonoured()).isEqualTo(1);
        }
    }

    @Test
    void score_siblingLeftRunning_requestedButNotHonouredAndStillInFlight() {
        AtomicLong clock = new AtomicLong(1_000);
        try (FailureMeter meter = new FailureMeter(new SimulatedBackend(), clock::get)) {
            meter.callAsync(hanging(7));   // nobody cancels it, as after CompletableFuture.cancel on a supplyAsync
            assertThat(catchThrowable(() -> meter.callAsync(failing(7)).join())).isNotNull();
            meter.watch(7, CompletableFuture.failedFuture(new IllegalStateException("downstream failure")));

            FailureScore score = meter.score(meter.callsInFlight());
            assertThat(score.cancellationsRequested()).isEqualTo(1);
            assertThat(score.cancellationsHonoured()).isZero();
            assertThat(score.orphanedCalls()).isEqualTo(1);
            assertThat(score.callsLeftRunning()).isEqualTo(1);
        }
    }

    @Test
    void score_blockingCallInterrupted_countsAsHonoured() throws Exception {
        AtomicLong clock = new AtomicLong(1_000);
        SimulatedBackend backend = new SimulatedBackend();
        try (FailureMeter meter = new FailureMeter(backend, clock::get)) {
            Thread caller = Thread.ofPlatform().start(() -> catchThrowable(() -> meter.callBlocking(hanging(3))));
            while (backend.callsInFlight() == 0) Thread.onSpinWait();
            meter.watch(3, CompletableFuture.failedFuture(new java.util.concurrent.TimeoutException("deadline")));
            caller.interrupt();
            caller.join(10_000);
            assertThat(caller.isAlive()).isFalse();
            assertThat(backend.callsInFlight()).isZero();
            FailureScore score = meter.score(meter.callsInFlight());
            assertThat(score.cancellationsHonoured()).isEqualTo(1);
            assertThat(score.cancellationsRequested()).isEqualTo(1);
            assertThat(score.meanTimeToFailMillis()).isZero();   // no failure inside: the deadline ended it
        }
    }
}
