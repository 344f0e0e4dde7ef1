package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The modelled server's request pool: platform threads named {@code request-N}, at most {@value #MAX} (Tomcat's
 * default {@code maxThreads}), at least {@value #MIN_SPARE} kept. Like Tomcat's executor, it starts a new thread
 * only when every thread is busy, and queues requests once {@value #MAX} are busy, so an asynchronous variant
 * that frees its request thread at once uses a handful of threads while a blocking one uses one per request in
 * flight.
 *
 * <p>Also home of the thread factory the variants share ({@link #factory}); shutting down is {@link Tasks#shutdown}.
 */
final class RequestThreads implements AutoCloseable {
    static final String PREFIX = "request-";
    static final int MAX = 200;
    static final int MIN_SPARE = 10;

    private final ThreadPoolExecutor pool;

    /** Tasks submitted and not yet finished; the queue compares it with the pool size, as Tomcat does. */
    private final java.util.concurrent.atomic.AtomicInteger submitted = new java.util.concurrent.atomic.AtomicInteger();

    RequestThreads() {
        TaskQueue queue = new TaskQueue(submitted);
        pool = new ThreadPoolExecutor(MIN_SPARE, MAX, 60, TimeUnit.SECONDS, queue, factory("request"),
                (task, executor) -> queue.force(task)) {
            @Override protected void afterExecute(Runnable r, Throwable t) { submitted.decrementAndGet(); }
        };
        queue.pool = pool;
    }

    /**
     * Runs {@code work} on a request thread; the returned future completes with what the work's own future
     * completes with (for a blocking variant, the work has already finished; for an asynchronous one, the request
     * thread is free again while the answer is pending: the "suspended response"). Cancelling the returned
     * future interrupts the request thread if it still runs the work.
     */
    CompletableFuture<Object> handle(Callable<CompletableFuture<Object>> work) {
        CompletableFuture<Object> response = new CompletableFuture<>();
        submitted.incrementAndGet();
        Future<?> task;
        try {
            task = pool.submit(() -> {
            try {
                CompletableFuture<Object> answer = work.call();
                answer.whenComplete((v, e) -> {
                    if (e != null) response.completeExceptionally(e);
                    else response.complete(v);
                });
                response.whenComplete((v, e) -> { if (e != null) answer.cancel(true); });
            } catch (Throwable t) {
                response.completeExceptionally(t);
            }
            });
        } catch (RuntimeException e) {
            submitted.decrementAndGet();
            throw e;
        }
        response.whenComplete((v, e) -> { if (e != null) task.cancel(true); });
        return response;
    }

    @Override public void close() { Tasks.shutdown(pool); }

    /**
     * The request thread's side of a variant: the blocking form holds the request thread until the answer is in
     * (the original's latch), rethrowing the failure as it was thrown; the asynchronous form returns at once.
     */
    static CompletableFuture<Object> holdIf(boolean waits, CompletableFuture<Object> response) throws Exception {
        if (!waits) return response;
        try {
            return CompletableFuture.completedFuture(response.get());
        } catch (java.util.concurrent.ExecutionException ex) {
            throw ex.getCause() instanceof Exception cause ? cause : ex;
        }
    }

    /**
     * Tomcat's trick: refuse to queue while the pool may still grow and no thread is idle, so the executor starts a
     * thread instead. Idleness is judged from an exact count of submitted, unfinished tasks (not the executor's
     * approximate active count), so two requests arriving together never both queue behind one idle thread.
     */
    private static final class TaskQueue extends LinkedBlockingQueue<Runnable> {
        private final java.util.concurrent.atomic.AtomicInteger submitted;
        volatile ThreadPoolExecutor pool;

        TaskQueue(java.util.concurrent.atomic.AtomicInteger submitted) { this.submitted = submitted; }

        @Override public boolean offer(Runnable task) {
            ThreadPoolExecutor p = pool;
            if (p != null && p.getPoolSize() < p.getMaximumPoolSize() && submitted.get() > p.getPoolSize())
                return false;
            return super.offer(task);
        }

        void force(Runnable task) {
            if (pool.isShutdown()) throw new java.util.concurrent.RejectedExecutionException("request pool closed");
            super.offer(task);
        }
    }

    /**
     * A factory of platform threads named {@code prefix-N}; it remembers them so {@link #joinAll} can wait for
     * threads that a library (Disruptor) starts but does not join.
     */
    static Named factory(String prefix) { return new Named(prefix); }

    static final class Named implements ThreadFactory {
        private final ThreadFactory delegate;
        private final List<Thread> started = new CopyOnWriteArrayList<>();

        Named(String prefix) { delegate = Thread.ofPlatform().name(prefix + "-", 0).daemon().factory(); }

        @Override public Thread newThread(Runnable r) {
            Thread t = delegate.newThread(r);
            started.add(t);
            return t;
        }

        /**
         * Interrupts every thread this factory made until all have ended, up to 10 s: for handlers that a halted
         * library (Disruptor) lets finish the events already in its ring, each of which may block in a call.
         */
        void interruptAndJoinAll() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            try {
                while (System.nanoTime() < deadline && started.stream().anyMatch(Thread::isAlive)) {
                    started.forEach(Thread::interrupt);
                    for (Thread t : started) t.join(java.time.Duration.ofMillis(10));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Waits up to 10 s for every thread this factory made to end. */
        void joinAll() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            for (Thread t : started) {
                try {
                    long left = deadline - System.nanoTime();
                    if (left > 0) t.join(java.time.Duration.ofNanos(left));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** A fixed pool of {@code n} named platform threads. */
    static ExecutorService fixed(String prefix, int n) {
        return Executors.newFixedThreadPool(n, factory(prefix));
    }


}
