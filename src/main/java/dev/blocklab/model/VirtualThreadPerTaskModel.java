package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * A virtual thread per request, running the same blocking code as the platform-thread models: a blocked
 * virtual thread unmounts from its carrier, so waiting costs no platform thread.
 *
 * <p>It starts its threads itself ({@code Thread.ofVirtual()}) rather than through
 * {@code Executors.newVirtualThreadPerTaskExecutor()}, and keeps the requests in flight in lists linked through the
 * requests themselves, for {@link #close}. At a million requests in flight each one's bytes and the frames on its
 * waiting stack are what the run costs: the executor added a wrapper, a frame and a node of its thread set per
 * request. {@code reproduce million-jobs} measures the model against the bare JDK.
 */
final class VirtualThreadPerTaskModel implements Model {
    private static final int STRIPES = 8;   // a power of two: the submitter and the carriers rarely meet on one lock

    private final Backend backend;
    private final DirectStyle.BlockingCaller caller;
    private final ThreadFactory threads = Thread.ofVirtual().factory();
    private final Stripe[] inFlight = new Stripe[STRIPES];
    private volatile boolean closed;

    VirtualThreadPerTaskModel(Backend backend) {
        this.backend = backend;
        this.caller = backend::callBlocking;
        for (int i = 0; i < STRIPES; i++) inFlight[i] = new Stripe();
    }

    @Override public String name() { return "virtual"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return start(new RequestTask(request, null));
    }

    /** Hands the outcome to {@code onDone} from the request's own thread as it ends: no dependent stage. */
    @Override public void submit(Request request, BiConsumer<Object, Throwable> onDone) {
        start(new RequestTask(request, Objects.requireNonNull(onDone, "onDone")));
    }

    private RequestTask start(RequestTask task) {
        if (closed) throw new RejectedExecutionException("model virtual is closed");
        task.stripe().add(task);
        if (closed) task.cancel(true);   // close may have walked the lists before the add: the task must not run
        try {
            threads.newThread(task).start();
        } catch (Throwable t) {
            task.stripe().remove(task);
            throw t;
        }
        return task;
    }

    /**
     * One request on its own virtual thread: the future, the task, the request and its link in the in-flight list
     * in one object. A lone call made once (seed 004's job) goes to the backend straight from {@link #work}: while
     * it waits, three frames lie below the backend's on the thread's stack (with the executor and the graph walker,
     * seven and a method reference's).
     */
    private final class RequestTask extends Tasks.OwnThreadTask {
        private final Request request;
        private final BiConsumer<Object, Throwable> onDone;   // null when the caller holds the future
        private RequestTask previous, next;   // guarded by stripe()

        RequestTask(Request request, BiConsumer<Object, Throwable> onDone) {
            this.request = request;
            this.onDone = onDone;
        }

        /** The part of the in-flight lists this request is kept in: derived from its id. */
        Stripe stripe() { return inFlight[(int) (request.id() & (STRIPES - 1))]; }

        @Override Object work() throws Exception {
            return DirectStyle.isLoneCallOnce(request.graph())
                    ? backend.callBlocking(DirectStyle.loneCall(request))
                    : DirectStyle.evaluate(request, caller);
        }

        /** Tells the callback, if any, then leaves the in-flight list: close returns after the callbacks ran. */
        @Override void ended() {
            try {
                if (onDone != null) {
                    switch (state()) {
                        case SUCCESS -> onDone.accept(resultNow(), null);
                        case FAILED -> onDone.accept(null, exceptionNow());
                        case CANCELLED -> onDone.accept(null, new CancellationException("request cancelled"));
                        case RUNNING -> throw new IllegalStateException("a request task ended without an outcome");
                    }
                }
            } finally {
                stripe().remove(this);
            }
        }
    }

    /**
     * Part of the requests in flight: a circular doubly linked list through the tasks, around a sentinel that is
     * never run, under the stripe's lock. With the sentinel, adding and removing take no branch on an empty or a
     * one-element list: a branch the JIT has never seen taken (the list emptying at the end of a batch) would
     * deoptimize the request task's compiled {@code run}, into which these are inlined, and the threads started
     * until it is compiled again would freeze its larger C1 frame (320 B against 128 B) on their waiting stacks.
     */
    private final class Stripe {
        private final RequestTask sentinel = new RequestTask(null, null);

        Stripe() { sentinel.previous = sentinel.next = sentinel; }

        synchronized void add(RequestTask t) {
            t.next = sentinel.next;
            t.previous = sentinel;
            sentinel.next.previous = t;
            sentinel.next = t;
        }

        synchronized void remove(RequestTask t) {
            if (t.next == null) return;   // not in the list (already removed)
            t.previous.next = t.next;
            t.next.previous = t.previous;
            t.previous = t.next = null;
        }

        /** Cancels the tasks in the list (interrupting a running one), outside the lock: cancelling runs their stages. */
        void cancelAll() {
            List<RequestTask> tasks = new ArrayList<>();
            synchronized (this) {
                for (RequestTask t = sentinel.next; t != sentinel; t = t.next) tasks.add(t);
            }
            for (RequestTask t : tasks) t.cancel(true);
        }

        synchronized boolean isEmpty() { return sentinel.next == sentinel; }

        /** The tasks linked now (for tests). */
        synchronized int linked() {
            int n = 0;
            for (RequestTask t = sentinel.next; t != sentinel; t = t.next) n++;
            return n;
        }
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return new Prediction(d.slowestNanos(Path.SERIAL) + d.cpuFloor(d.cores()),
                d.describe(Path.SERIAL) + " (a virtual thread per request, calls in sequence)", Path.SERIAL);
    }

    /** The tasks the in-flight lists hold. */
    int tasksLinked() {
        int n = 0;
        for (Stripe s : inFlight) n += s.linked();
        return n;
    }

    /** Cancels the requests in flight (interrupting their threads) and waits up to 30 s for their threads to end. */
    @Override public void close() {
        closed = true;
        for (Stripe s : inFlight) s.cancelAll();
        boolean interrupted = Thread.interrupted();   // an interrupted closer would otherwise spin: park returns at once
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (Stripe s : inFlight) {
                while (!s.isEmpty()) {
                    if (System.nanoTime() - deadline > 0)
                        throw new IllegalStateException("threads of model virtual did not end within 30 s of close");
                    LockSupport.parkNanos(1_000_000L);
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }
}
