package dev.blocklab.model;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
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

    /**
     * A future that is its own task, for an executor that starts a new thread for every task (such as
     * {@link java.util.concurrent.Executors#newVirtualThreadPerTaskExecutor()}): {@link #start} hands the future
     * itself to {@code execute}, so a request costs no {@code FutureTask}, no callback and no lambda, and keeps
     * two fewer frames on its stack while it waits (a waiting virtual thread keeps its frames on the heap: at a
     * million requests in flight every frame counts). Completing the future from outside (cancelling it, or failing
     * it with a timeout) interrupts the thread running it; as that thread runs nothing else, a late interrupt hits
     * no other task. Compare {@link #submitInterruptibly}, which works with any executor.
     */
    abstract static class OwnThreadTask extends CompletableFuture<Object> implements Runnable {
        private volatile Thread runner;

        /** The task's work, run once on its own thread; its result or failure completes this future. */
        abstract Object work() throws Exception;

        /** Starts the task on a new thread of {@code threadPerTask}; returns this future. */
        final CompletableFuture<Object> start(Executor threadPerTask) {
            threadPerTask.execute(this);
            return this;
        }

        @Override public final void run() {
            runner = Thread.currentThread();   // before the check: a canceller either sees the runner or is seen
            if (isDone()) return;
            try {
                complete(work());
            } catch (Throwable t) {
                completeExceptionally(t);
            } finally {
                runner = null;
            }
        }

        @Override public boolean completeExceptionally(Throwable failure) {
            boolean completed = super.completeExceptionally(failure);
            if (completed) interruptRunner();
            return completed;
        }

        @Override public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) interruptRunner();
            return cancelled;
        }

        private void interruptRunner() {
            Thread t = runner;
            if (t != null && t != Thread.currentThread()) t.interrupt();
        }
    }

    /**
     * The thread running one request's body on a pool the model does not control (such as Scala's execution
     * context, whose futures cannot be cancelled): {@link #interrupt} reaches that thread only while the body runs,
     * so a late interrupt never hits the pool's next task. Thread-safe.
     */
    static final class Runner {
        private Thread thread;
        private boolean stopped;

        /** Runs {@code body} on the current thread, interruptible by {@link #interrupt} until it returns. */
        Object run(Callable<Object> body) throws Exception {
            synchronized (this) {
                if (stopped) throw new java.util.concurrent.CancellationException("request ended before it started");
                thread = Thread.currentThread();
            }
            try {
                return body.call();
            } finally {
                synchronized (this) {
                    thread = null;
                    stopped = true;
                    Thread.interrupted();   // an interrupt that raced with the end is not the next task's
                }
            }
        }

        /** Interrupts the body if it runs; stops it from starting if it has not. */
        synchronized void interrupt() {
            stopped = true;
            if (thread != null && thread != Thread.currentThread()) thread.interrupt();
        }
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
