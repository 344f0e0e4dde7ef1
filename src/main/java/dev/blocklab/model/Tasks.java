package dev.blocklab.model;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinWorkerThread;
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
            try {
                if (!isDone()) complete(work());
            } catch (Throwable t) {
                completeExceptionally(t);
            } finally {
                runner = null;
                ended();
            }
        }

        /** Runs last on the task's thread, however the task ended (also when it was completed before it ran). */
        void ended() {}

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
     * The thread running one request's blocking body on a thread the caller does not own (a pool such as Scala's
     * execution context, whose futures cannot be cancelled, or a server's handler thread): {@link #interrupt}
     * reaches that thread only while the body runs, stops a body that has not started from starting, and the
     * interrupt it sent is cleared when the body ends, so it never reaches the thread's next task. One body per
     * instance. Thread-safe.
     */
    public static final class Runner {
        private Thread thread;
        private boolean stopped;
        private boolean interruptSent;

        /**
         * Runs {@code body} on the current thread, interruptible by {@link #interrupt} until it returns.
         *
         * @throws java.util.concurrent.CancellationException when {@link #interrupt} came first, or a body already ran
         */
        public <T> T run(Callable<T> body) throws Exception {
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
                    if (interruptSent) Thread.interrupted();   // ours, and it raced with the end: not the next task's
                }
            }
        }

        /** Interrupts the body if it runs; stops it from starting if it has not. Idempotent. */
        public synchronized void interrupt() {
            stopped = true;
            if (thread != null && thread != Thread.currentThread() && !interruptSent) {
                interruptSent = true;
                thread.interrupt();
            }
        }

        /** True while a thread runs the body. */
        public synchronized boolean running() { return thread != null; }
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

    /**
     * Shuts the executor down, interrupting what still runs, and waits up to 30 s for its threads to end. Called on
     * one of the executor's own threads (a request's callback closing its model), it returns once the others are
     * interrupted, without waiting: the executor cannot end before the calling thread does. A thread pool's
     * {@code shutdownNow} interrupts the caller too, so its wait returns at once; a fork-join worker is told apart
     * here, as its pool's wait would last the whole 30 s.
     */
    public static void shutdown(ExecutorService executor) {
        executor.shutdownNow();
        if (Thread.currentThread() instanceof ForkJoinWorkerThread w && w.getPool() == executor) return;
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
