package dev.blocklab.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link Tasks#shutdown}, which every pool model's close is, called on one of the pool's own threads. */
class TasksShutdownTest {

    private static ExecutorService pool(String kind) {
        return switch (kind) {
            case "fixed" -> Executors.newFixedThreadPool(2);
            case "forkjoin" -> new ForkJoinPool(2);
            case "thread-per-task" -> Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory());
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /**
     * Shut down from one of its own tasks (a request's callback closing its model), the pool stops the other
     * tasks and the call returns at once: waiting for the pool to end would wait for the calling thread itself
     * (a fork-join worker waited the full 30 s, then threw).
     */
    @ParameterizedTest @ValueSource(strings = {"fixed", "forkjoin", "thread-per-task"})
    void shutdown_onOneOfItsOwnThreads_stopsTheOthers_andReturnsWithoutWaitingForItself(String kind) throws Exception {
        ExecutorService pool = pool(kind);
        CountDownLatch otherStarted = new CountDownLatch(1);
        CompletableFuture<Boolean> otherInterrupted = new CompletableFuture<>();
        pool.execute(() -> {
            otherStarted.countDown();
            try {
                Thread.sleep(60_000);
                otherInterrupted.complete(false);
            } catch (InterruptedException e) {
                otherInterrupted.complete(true);
            }
        });
        assertThat(otherStarted.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Long> closeNanos = new CompletableFuture<>();
        pool.execute(() -> {
            long t0 = System.nanoTime();
            try {
                Tasks.shutdown(pool);
                closeNanos.complete(System.nanoTime() - t0);
            } catch (Throwable t) {
                closeNanos.completeExceptionally(t);
            }
        });
        assertThat(closeNanos.get(60, TimeUnit.SECONDS)).as("shutdown on its own thread returns").isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(otherInterrupted.get(10, TimeUnit.SECONDS)).as("the other task was interrupted").isTrue();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).as("the pool ends once the closing task returns").isTrue();
    }
}
