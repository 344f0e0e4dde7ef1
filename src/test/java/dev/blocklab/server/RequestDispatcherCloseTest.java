package dev.blocklab.server;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stop cancels the backlog instead of draining it, and its wait is bounded ({@code serve} waits 1 s in all), even
 * for a handler that does not answer its interrupt.
 */
class RequestDispatcherCloseTest {
    @Test
    void close_dropsTheQueuedRequests_andAnswersFalseWhenAHandlerOutlivesTheWait() throws Exception {
        RequestDispatcher dispatcher = new RequestDispatcher(new ServerProfile.Threads(1), 100);
        CountDownLatch running = new CountDownLatch(1), release = new CountDownLatch(1);
        AtomicInteger queuedRan = new AtomicInteger();
        dispatcher.dispatch(() -> {
            running.countDown();
            boolean interrupted = false;
            while (true) {   // a handler that does not answer its interrupt (a native call, say)
                try {
                    if (release.await(10, TimeUnit.SECONDS)) break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) Thread.currentThread().interrupt();
        }, why -> {});
        for (int i = 0; i < 20; i++) dispatcher.dispatch(queuedRan::incrementAndGet, why -> {});
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(dispatcher.close(Duration.ofMillis(200))).as("the handler still runs after the wait").isFalse();
        release.countDown();
        assertThat(dispatcher.close(Duration.ofSeconds(10))).as("ended once released").isTrue();
        assertThat(queuedRan).as("the backlog was dropped, not drained").hasValue(0);
    }
}
