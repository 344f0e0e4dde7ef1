package dev.blocklab.model;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TasksRunnerTest {

    @Test
    void interrupt_beforeTheBodyStarts_stopsItFromStarting() {
        Tasks.Runner runner = new Tasks.Runner();
        runner.interrupt();
        assertThatThrownBy(() -> runner.run(() -> "ran")).isInstanceOf(CancellationException.class);
    }

    @Test
    void interrupt_whileTheBodyRuns_reachesIt_andIsClearedAtItsEnd() throws Exception {
        Tasks.Runner runner = new Tasks.Runner();
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<String> seen = new CompletableFuture<>();
        Thread worker = Thread.ofPlatform().start(() -> {
            try {
                runner.run(() -> {
                    started.countDown();
                    try {
                        Thread.sleep(30_000);
                        return "slept";
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();   // the body restores the flag, as careful code does
                        return "interrupted";
                    }
                });
                seen.complete("after the body the flag is " + Thread.currentThread().isInterrupted());
            } catch (Exception e) {
                seen.completeExceptionally(e);
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(runner.running()).isTrue();
        runner.interrupt();
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("after the body the flag is false");
        worker.join(10_000);
        assertThat(runner.running()).isFalse();
    }

    @Test
    void run_leavesAnInterruptItDidNotSend() throws Exception {
        Tasks.Runner runner = new Tasks.Runner();
        try {
            assertThat(runner.run(() -> {
                Thread.currentThread().interrupt();   // someone else's interrupt, e.g. a pool shutting down
                return "done";
            })).isEqualTo("done");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThatThrownBy(() -> runner.run(() -> "again")).as("one body per runner").isInstanceOf(CancellationException.class);
    }
}
