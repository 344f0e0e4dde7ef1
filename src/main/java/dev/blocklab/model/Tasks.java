package dev.blocklab.model;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Executor helpers shared by every model, here and in the frameworks comparison. Thread-safe, stateless. */
public final class Tasks {
    private Tasks() {}

    /**
     * Runs {@code work} on {@code executor} and returns a future of its result; completing the future from
     * outside (cancelling it, or failing it with a timeout) interrupts the thread running it.
     */
    public static CompletableFuture<Object> submitInterruptibly(ExecutorService executor, Callable<Object> work) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        Future<?> task = executor.submit(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        result.whenComplete((v, e) -> { if (e != null) task.cancel(true); });
        return result;
    }

    /** Runs a blocking call where a lambda cannot throw checked exceptions. */
    public static Object unchecked(Callable<Object> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new CompletionException(e);
        }
    }

    /** Shuts the executor down, interrupting what still runs, and waits for its threads to end. */
    public static void shutdown(ExecutorService executor) {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS))
                throw new IllegalStateException("threads of " + executor + " did not end within 30 s of close");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A factory of named platform threads. */
    public static java.util.concurrent.ThreadFactory named(String prefix) {
        return Thread.ofPlatform().name(prefix + "-", 0).factory();
    }
}
