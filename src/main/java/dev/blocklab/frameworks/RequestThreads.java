package dev.blocklab.frameworks;

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
 * <p>Also home of the small thread helpers the variants share ({@link #factory}, {@link #shutdown}).
 */
final class RequestThreads implements AutoCloseable {
    static final String PREFIX = "request-";
    static final int MAX = 200;
    static final int MIN_SPARE = 10;

    private final ThreadPoolExecutor pool;

    RequestThreads() {
        TaskQueue queue = new TaskQueue();
        pool = new ThreadPoolExecutor(MIN_SPARE, MAX, 60, TimeUnit.SECONDS, queue, factory("request"),
                (task, executor) -> queue.force(task));
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
        Future<?> task = pool.submit(() -> {
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
        response.whenComplete((v, e) -> { if (e != null) task.cancel(true); });
        return response;
    }

    @Override public void close() { shutdown(pool); }

    /** Tomcat's trick: refuse to queue while the pool may still grow and no thread is idle. */
    private static final class TaskQueue extends LinkedBlockingQueue<Runnable> {
        volatile ThreadPoolExecutor pool;

        @Override public boolean offer(Runnable task) {
            ThreadPoolExecutor p = pool;
            if (p != null && p.getPoolSize() < p.getMaximumPoolSize() && p.getActiveCount() >= p.getPoolSize())
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

    /** Shuts the executor down, interrupting what still runs, and waits for its threads to end. */
    static void shutdown(ExecutorService executor) {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS))
                throw new IllegalStateException("threads of " + executor + " did not end within 30 s of close");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The value of a blocking call where a lambda cannot throw checked exceptions. */
    static Object unchecked(Callable<Object> work) {
        try {
            return work.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }
}
