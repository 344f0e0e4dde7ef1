package dev.blocklab.server;

import io.vertx.core.Context;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits requests and hands them from the event loop to the profile's threads.
 *
 * <p>Admission: for a queueing profile a request is admitted while fewer than {@code capacity} requests wait
 * for a thread; otherwise while fewer than {@code capacity} are in flight. With {@link Admission#CODEL} (the
 * default) a queued request is also shed when a thread takes it if the queue is overloaded and it waited too
 * long ({@link QueueDelayShedder}). A refused request is answered 503 by the caller, so no queue grows past its
 * bound. Continuations of admitted requests (the last stage of an async endpoint) go straight to the executor
 * and are never refused.
 *
 * <p>Thread limit: when the OS refuses a new thread ({@code OutOfMemoryError: unable to create native thread})
 * the request's slot is given back, the request refused ({@link Refusal#NO_THREAD}), the failure counted, and
 * the pool capped below the threads it has, so that idle surplus threads exit and the JVM keeps room for its
 * own (a signal handler, a shutdown hook). A task that the pool queued before failing to start a thread runs at
 * most once: whoever claims it first (the failure path or a worker) decides.
 *
 * <p>Threads: {@link #dispatch} is called on event loops; counters are atomic.
 */
final class RequestDispatcher implements AutoCloseable {
    /** Why a request was not run. */
    enum Refusal {
        QUEUE_FULL("request queue full"), IN_FLIGHT_FULL("requests in flight full"),
        QUEUE_DELAY("queueing delay over target"), NO_THREAD("the OS refused a new thread");

        final String reason;

        Refusal(String reason) { this.reason = reason; }
    }

    private final ServerProfile profile;
    private final int capacity;
    private final Admission admission;
    private final ExecutorService executor;      // null for event-loop
    private final QueueDelayShedder shedder = QueueDelayShedder.withDefaults(System.nanoTime());
    private final java.util.function.Consumer<String> log;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger liveThreads = new AtomicInteger();
    private final java.util.concurrent.atomic.LongAdder threadStartFailures = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder delayShed = new java.util.concurrent.atomic.LongAdder();
    private volatile int threadCap = Integer.MAX_VALUE;

    RequestDispatcher(ServerProfile profile, int capacity) {
        this(profile, capacity, Admission.CODEL, Integer.MAX_VALUE, line -> {});
    }

    /**
     * @param maxHandlerThreads a test hook standing for the OS thread limit: starting a handler thread beyond
     *                          this many live ones throws the JVM's {@code OutOfMemoryError} (MAX_VALUE: none)
     * @param log               one line per operational event (a thread refused, the pool capped)
     */
    RequestDispatcher(ServerProfile profile, int capacity, Admission admission, int maxHandlerThreads,
                      java.util.function.Consumer<String> log) {
        this.profile = profile;
        this.capacity = capacity;
        this.admission = admission;
        this.log = log;
        this.executor = profile.executor(new ServerProfile.ThreadCount() {
            @Override public void starting() {
                checkThreadLimit(maxHandlerThreads);
                liveThreads.incrementAndGet();
            }

            @Override public void ended() { liveThreads.decrementAndGet(); }
        }).orElse(null);
    }

    private void checkThreadLimit(int maxHandlerThreads) {
        if (liveThreads.get() >= maxHandlerThreads)
            throw new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource"
                    + " limits reached (test hook: at most " + maxHandlerThreads + " handler threads)");
    }

    /** True for the JVM's error when the OS refuses a thread. */
    static boolean isThreadStartFailure(Throwable t) {
        return t instanceof OutOfMemoryError && t.getMessage() != null && t.getMessage().contains("native thread");
    }

    /**
     * Admits a request and runs {@code handler} on the profile's threads (inline on the calling event loop for
     * {@code event-loop}); the caller must call {@link #finished()} once the request is answered. When the
     * request is not run, {@code refused} is called instead, at once or when a thread takes the request (for
     * {@link Refusal#QUEUE_DELAY}); the slot is already given back then, so the caller must not call
     * {@link #finished()}.
     */
    void dispatch(Runnable handler, java.util.function.Consumer<Refusal> refused) {
        boolean queues = profile.queues();
        if (queues) {
            if (waiting.incrementAndGet() > capacity) {
                waiting.decrementAndGet();
                refused.accept(Refusal.QUEUE_FULL);
                return;
            }
            inFlight.incrementAndGet();
        } else if (inFlight.incrementAndGet() > capacity) {
            inFlight.decrementAndGet();
            refused.accept(Refusal.IN_FLIGHT_FULL);
            return;
        }
        if (executor == null) {
            runCounted(handler);
            return;
        }
        long enqueuedNanos = System.nanoTime();
        AtomicBoolean claimed = new AtomicBoolean();
        try {
            executor.execute(() -> {
                if (!claimed.compareAndSet(false, true)) return;   // already refused when the pool failed to start a thread
                if (queues) waiting.decrementAndGet();
                if (queues && admission == Admission.CODEL) {
                    long now = System.nanoTime();
                    if (shedder.shed(now - enqueuedNanos, now)) {
                        delayShed.increment();
                        inFlight.decrementAndGet();
                        refused.accept(Refusal.QUEUE_DELAY);
                        return;
                    }
                }
                runCounted(handler);
            });
        } catch (Throwable e) {
            if (!claimed.compareAndSet(false, true)) return;   // queued, and a worker already took it
            if (queues) waiting.decrementAndGet();
            inFlight.decrementAndGet();
            if (e instanceof java.util.concurrent.RejectedExecutionException) {   // closing
                refused.accept(Refusal.QUEUE_FULL);
            } else if (isThreadStartFailure(e)) {
                threadStartFailed(e);
                refused.accept(Refusal.NO_THREAD);
            } else {
                throw e;
            }
        }
    }

    /**
     * Counts a refused thread and caps the pool below what it has (minus a tenth, at least 2), once per new cap,
     * so that idle surplus threads exit and give the OS room for the JVM's own threads.
     */
    void threadStartFailed(Throwable e) {
        threadStartFailures.increment();
        int have = Math.max(0, poolThreads());
        int cap = Math.max(1, have - Math.max(2, have / 10));
        synchronized (this) {
            if (cap >= threadCap) return;
            threadCap = cap;
        }
        switch (executor) {
            case ThreadPoolExecutor t -> {
                if (cap < t.getMaximumPoolSize()) {
                    t.setCorePoolSize(Math.min(cap, t.getCorePoolSize()));
                    t.setMaximumPoolSize(cap);
                    t.setCorePoolSize(cap);
                }
            }
            case ForkJoinPool f -> { if (cap < f.getParallelism()) f.setParallelism(cap); }
            case null, default -> { }
        }
        log.accept("blocklab serve: the OS refused a new thread (" + e.getMessage() + ") with " + have
                + " handler threads; refusing with 503 and capping the pool at " + cap
                + " threads; counted in blocklab_thread_start_failures_total");
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
            } catch (OutOfMemoryError e) {
                if (!isThreadStartFailure(e)) throw e;
                threadStartFailed(e);
                task.run();   // no thread to run it on: finish on the caller rather than lose the answer
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

    /** Times the OS refused a new handler thread. */
    long threadStartFailures() { return threadStartFailures.sum(); }

    /** Requests shed because they waited too long in an overloaded queue. */
    long delayShedCount() { return delayShed.sum(); }

    /** The pool's thread cap after a refused thread, or -1 when never capped. */
    int threadCap() { return threadCap == Integer.MAX_VALUE ? -1 : threadCap; }

    Admission admission() { return admission; }

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
    @Override public void close() { close(java.time.Duration.ofSeconds(10)); }

    /**
     * {@link #stop()}, then {@link #awaitStopped} at most {@code maxWait}; false when a handler still runs then (one
     * that does not answer its interrupt).
     */
    boolean close(java.time.Duration maxWait) {
        stop();
        return awaitStopped(maxWait);
    }

    /** Drops the queued requests and interrupts the running ones; a request dispatched after this is refused. */
    void stop() {
        if (executor != null) executor.shutdownNow();
    }

    /** Waits at most {@code maxWait} for the handler threads to end after {@link #stop()}; false when one still runs. */
    boolean awaitStopped(java.time.Duration maxWait) {
        if (executor == null) return true;
        try {
            return executor.awaitTermination(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
