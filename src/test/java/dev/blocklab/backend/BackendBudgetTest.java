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
        // the backend would answer after 20 s; the caller waits 200 ms
        CallInvocation call = new CallInvocation("slow", 1, 20_000_000_000L, 200_000_000L, 1L, null);
        try (BackendServer server = BackendServer.start(new BackendSettings("127.0.0.1", 0, List.of(), 1, 1));
             HttpBackend backend = new HttpBackend(server.uri())) {
            long t0 = System.nanoTime();
            assertThat(catchThrowable(() -> backend.callBlocking(call))).isInstanceOf(TimeoutException.class);
            assertThat(catchThrowable(() -> backend.callAsync(call).get(20, TimeUnit.SECONDS)))
                    .hasRootCauseInstanceOf(TimeoutException.class);
            // both answers left the backend at the budget, not after 20 s (generous for a busy machine)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (server.pending() > 0 && System.nanoTime() < deadline) LockSupport.parkNanos(10_000_000L);
            assertThat(server.pending()).isZero();
            assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.SECONDS.toNanos(8));
        }
    }
}
