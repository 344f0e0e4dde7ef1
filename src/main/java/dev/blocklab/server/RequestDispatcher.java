package dev.blocklab.server;

import io.vertx.core.Context;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits requests and hands them from the event loop to the profile's threads.
 *
 * <p>Admission: for a queueing profile a request is admitted while fewer than {@code capacity} requests wait
 * for a thread; otherwise while fewer than {@code capacity} are in flight. A refused request is answered 503 by
 * the caller, so no queue grows past its bound. Continuations of admitted requests (the last stage of an async
 * endpoint) go straight to the executor and are never refused.
 *
 * <p>Threads: {@link #tryDispatch} is called on event loops; counters are atomic.
 */
final class RequestDispatcher implements AutoCloseable {
    private final ServerProfile profile;
    private final int capacity;
    private final ExecutorService executor;      // null for event-loop
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();

    RequestDispatcher(ServerProfile profile, int capacity) {
        this.profile = profile;
        this.capacity = capacity;
        this.executor = switch (profile) {
            case ServerProfile.Play25 p -> new ForkJoinPool(p.parallelism(), pool -> {
                var t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                t.setName("play-2.5-" + t.getPoolIndex());
                return t;
            }, null, false);
            case ServerProfile.Threads t -> new ThreadPoolExecutor(t.threads(), t.threads(), 60, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), Thread.ofPlatform().name("http-", 0).factory());
            case ServerProfile.Virtual v -> Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("http-virtual-", 0).factory());
            case ServerProfile.EventLoop e -> null;
        };
    }

    /**
     * Admits a request and runs {@code handler} on the profile's threads (inline on the calling event loop for
     * {@code event-loop}); the caller must call {@link #finished()} once the request is answered.
     *
     * @return false when the bound is reached: the request was not admitted and the handler will not run
     */
    boolean tryDispatch(Runnable handler) {
        if (profile.queues()) {
            if (waiting.incrementAndGet() > capacity) {
                waiting.decrementAndGet();
                return false;
            }
            inFlight.incrementAndGet();
        } else if (inFlight.incrementAndGet() > capacity) {
            inFlight.decrementAndGet();
            return false;
        }
        if (executor == null) {
            runCounted(handler);
            return true;
        }
        try {
            executor.execute(() -> {
                if (profile.queues()) waiting.decrementAndGet();
                runCounted(handler);
            });
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {   // closing
            if (profile.queues()) waiting.decrementAndGet();
            inFlight.decrementAndGet();
            return false;
        }
    }

    private void runCounted(Runnable handler) {
        running.incrementAndGet();
        try {
            handler.run();
        } finally {
            running.decrementAndGet();
        }
    }

    /** Marks an admitted request as answered. */
    void finished() { inFlight.decrementAndGet(); }

    /**
     * Where the last stage of an asynchronous endpoint runs, as Play runs it on its dispatcher: the profile's
     * executor, or the request's event loop for {@code event-loop}.
     */
    Executor continuationExecutor(Context requestContext) {
        if (executor == null) return task -> requestContext.runOnContext(ignored -> task.run());
        return task -> {
            try {
                executor.execute(task);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                task.run();   // closing: finish on the caller rather than lose the answer
            }
        };
    }

    boolean onEventLoop() { return executor == null; }

    int capacity() { return capacity; }

    /** Admitted requests waiting for a handler thread. */
    int waiting() { return waiting.get(); }

    /** Handlers running now (each holds its thread while it runs). */
    int running() { return running.get(); }

    /** Admitted requests not yet answered. */
    int inFlight() { return inFlight.get(); }

    /** Tasks in the executor's queues (requests and continuations), or 0 for event-loop. */
    long executorQueueLength() {
        return switch (executor) {
            case ForkJoinPool f -> f.getQueuedSubmissionCount() + f.getQueuedTaskCount();
            case ThreadPoolExecutor t -> t.getQueue().size();
            case null, default -> 0;
        };
    }

    /** Platform threads the executor has started, or -1 when it makes a virtual thread per task or has none. */
    int poolThreads() {
        return switch (executor) {
            case ForkJoinPool f -> f.getPoolSize();
            case ThreadPoolExecutor t -> t.getPoolSize();
            case null, default -> -1;
        };
    }

    /** Stops the threads, interrupting handlers still running, and waits up to 10 s for them to end. */
    @Override public void close() {
        if (executor == null) return;
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
