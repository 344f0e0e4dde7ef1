package dev.blocklab.backend;

import dev.blocklab.workload.CallInvocation;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The caller's budget travels with the call ({@link BackendServer#BUDGET_HEADER}): a call nobody waits for stops. */
class BackendBudgetTest {

    @Test
    void call_timeoutShorterThanDelay_backendReleasesThePendingAnswerAtTheBudget() throws Exception {
        // the backend would answer after 60 s; the caller waits 200 ms
        CallInvocation call = new CallInvocation("slow", 1, 60_000_000_000L, 200_000_000L, 1L, null);
        try (BackendServer server = BackendServer.start(new BackendSettings("127.0.0.1", 0, List.of(), 1, 1));
             HttpBackend backend = new HttpBackend(server.uri())) {
            long t0 = System.nanoTime();
            assertThat(catchThrowable(() -> backend.callBlocking(call))).isInstanceOf(TimeoutException.class);
            assertThat(catchThrowable(() -> backend.callAsync(call).get(20, TimeUnit.SECONDS)))
                    .hasRootCauseInstanceOf(TimeoutException.class);
            // both answers left the backend at the budget, not after 60 s: awaited until half of that has passed,
            // generous for a busy machine (a stalled JVM once took 8 s for this test's sibling)
            long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
            while (server.pending() > 0 && System.nanoTime() < deadline) LockSupport.parkNanos(10_000_000L);
            assertThat(server.pending()).as("answers still pending at the backend").isZero();
        }
    }

    @Test
    void budgetNanos_theTimeoutOrWhatIsLeftOfTheDeadline_whicheverIsShorter() {
        CallInvocation noDeadline = new CallInvocation("c", 1, 5_000, 2_000, 1L, null);
        assertThat(noDeadline.budgetNanos(9_000, 100)).isEqualTo(2_000);
        CallInvocation noTimeout = new CallInvocation("c", 1, 5_000, 0, 1L, null);
        assertThat(noTimeout.budgetNanos(9_000, 100)).isEqualTo(9_000);
        CallInvocation withDeadline = new CallInvocation("c", 1, 5_000, 2_000, 1L, null, null, 0, false, 1_100);
        assertThat(withDeadline.budgetNanos(9_000, 100)).as("1,000 left of the deadline").isEqualTo(1_000);
        assertThat(withDeadline.budgetNanos(9_000, -1_000)).as("the timeout comes first").isEqualTo(2_000);
        assertThat(withDeadline.budgetNanos(9_000, 5_000)).as("past the deadline").isEqualTo(1);
    }

    @Test
    void call_requestDeadlineBeforeTheTimeout_backendIsToldWhatIsLeftAndStopsThen() throws Exception {
        // the backend would answer after 60 s and the call's timeout is 30 s, but the request's deadline is 300 ms away
        long deadline = System.nanoTime() + 300_000_000L;
        CallInvocation call = new CallInvocation("slow", 1, 60_000_000_000L, 30_000_000_000L, 1L, null, null, 0, false, deadline);
        try (BackendServer server = BackendServer.start(new BackendSettings("127.0.0.1", 0, List.of(), 1, 1));
             HttpBackend backend = new HttpBackend(server.uri())) {
            assertThat(catchThrowable(() -> backend.callAsync(call).get(60, TimeUnit.SECONDS)))
                    .hasRootCauseInstanceOf(TimeoutException.class).rootCause().hasMessageContaining("request's deadline");
            // ended near the deadline, not at the 30 s timeout: awaited until 20 s past the deadline, generous for a
            // busy machine (a bound of 5 s failed at 8 s with Vert.x's event loop blocked 3 s by the machine)
            long until = deadline + TimeUnit.SECONDS.toNanos(20);
            while (server.pending() > 0 && System.nanoTime() < until) LockSupport.parkNanos(10_000_000L);
            assertThat(server.pending()).as("answer still pending at the backend").isZero();
        }
    }
}
