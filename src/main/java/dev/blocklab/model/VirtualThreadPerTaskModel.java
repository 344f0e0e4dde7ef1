package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
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
 * {@code Executors.newVirtualThreadPerTaskExecutor()}, and keeps the requests in flight in chunks of slots, each
 * request clearing its own as it ends, for {@link #close}. At a million requests in flight each one's bytes and
 * the frames on its waiting stack are what the run costs: the executor added a wrapper, a frame and a node of its
 * thread set per request. {@code reproduce million-jobs} measures the model against the bare JDK.
 */
final class VirtualThreadPerTaskModel implements Model {
    private static final int STRIPES = 8;   // a power of two: submitting threads (event loops) rarely meet on one lock

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
        if (!task.stripe().add(task)) throw new RejectedExecutionException("model virtual is closed");
        try {
            threads.newThread(task).start();
        } catch (Throwable t) {
            task.stripe().remove(task);
            throw t;
        }
        return task;
    }

    /**
     * One request on its own virtual thread: the future, the task, the request and its slot among those in flight
     * in one object. A lone call made once (seed 004's job) goes to the backend straight from {@link #work}, with
     * the request, not a call description the backend would build: while it waits, three frames lie below the
     * backend's on the thread's stack (with the executor and the graph walker, seven and a method reference's).
     */
    private final class RequestTask extends Tasks.OwnThreadTask {
        private final Request request;
        private final BiConsumer<Object, Throwable> onDone;   // null when the caller holds the future
        private RequestTask[] chunk;   // where the task is kept in flight: chunk[slot], set by add before the thread starts
        private int slot;
        private Thread thread;   // its own once it runs: close called on it skips this task (no other thread is it)

        RequestTask(Request request, BiConsumer<Object, Throwable> onDone) {
            this.request = request;
            this.onDone = onDone;
        }

        /** The part of the requests in flight this request is kept in: derived from its id. */
        Stripe stripe() { return inFlight[(int) (request.id() & (STRIPES - 1))]; }

        @Override Object work() throws Exception {
            thread = Thread.currentThread();
            return DirectStyle.isLoneCallOnce(request.graph())
                    ? backend.callBlocking(request, 0, request.inputsOf(0, DirectStyle.NO_VALUES))
                    : DirectStyle.evaluate(request, caller);
        }

        /** Tells the callback, if any, then leaves its slot: close returns after the callbacks ran. */
        @Override void ended() {
            try {
                if (onDone != null) {
                    thread = Thread.currentThread();   // also when cancelled before it ran
                    switch (state()) {
                        case SUCCESS -> onDone.accept(resultNow(), null);
                        case FAILED -> onDone.accept(null, exceptionNow());
                        case CANCELLED -> onDone.accept(null, new CancellationException("request cancelled"));
                        case RUNNING -> throw new IllegalStateException("a request task ended without an outcome");
                    }
                }
            } finally {
                SLOTS.setRelease(chunk, slot, (RequestTask) null);   // after the callback: close waits for this
            }
        }
    }

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(RequestTask[].class);

    /**
     * Part of the requests in flight: chunks of {@value #CHUNK} slots, filled in order under the stripe's lock by
     * the submitting threads. A task leaves by clearing its own slot as it ends, without the lock and without
     * writing to any other task: a list that each task unlinked itself from under the lock cost the engine about a
     * tenth of its wall time at a million requests (the lock and the neighbours' lines passed between the two cores
     * for every request; docs/benchmarks.md). Each new chunk first looks at the oldest {@value #LOOKS}: drops those
     * whose slots are all clear and moves the others behind the rest, so a long request keeps its own chunk
     * (4 KiB) until it ends, not the chunks after it. A finished request is never held. A model left idle keeps
     * the chunks of its last burst, without their requests (4 bytes a request of the burst), until requests arrive
     * again or it closes.
     */
    private final class Stripe {
        private static final int CHUNK = 1024;
        private static final int LOOKS = 8;
        private final ArrayDeque<RequestTask[]> chunks = new ArrayDeque<>();   // guarded by this; oldest first
        private RequestTask[] filling = new RequestTask[CHUNK];                // guarded by this; one of chunks
        private int next;                                                      // guarded by this

        Stripe() { chunks.add(filling); }

        /**
         * Keeps {@code t} in flight, or returns false once the model is closed. The check is under the lock that
         * {@link #tasks} takes, so a task is either added before close looks at this stripe (and is cancelled and
         * waited for) or refused: none starts after close returned.
         */
        synchronized boolean add(RequestTask t) {
            if (closed) return false;
            if (next == CHUNK) newChunk();
            t.chunk = filling;
            t.slot = next;
            SLOTS.setRelease(filling, next++, t);
            return true;
        }

        /** Looks at up to {@value #LOOKS} of the oldest chunks first: drops the clear ones, moves the others behind. */
        private void newChunk() {
            for (int looked = 0; looked < LOOKS; looked++) {
                RequestTask[] oldest = chunks.pollFirst();
                if (oldest == null) break;
                if (!isClear(oldest)) chunks.addLast(oldest);   // a request in it still runs: look again after the others
            }
            filling = new RequestTask[CHUNK];
            next = 0;
            chunks.addLast(filling);
        }

        private static boolean isClear(RequestTask[] chunk) {
            for (int i = 0; i < chunk.length; i++) if (SLOTS.getAcquire(chunk, i) != null) return false;
            return true;
        }

        /** True when no slot holds a task but one running on {@code caller} (close called from a request). */
        private static boolean isClearBut(RequestTask[] chunk, Thread caller) {
            for (int i = 0; i < chunk.length; i++)
                if (SLOTS.getAcquire(chunk, i) instanceof RequestTask t && t.thread != caller) return false;
            return true;
        }

        /** Clears the slot of a task that never ran (its thread could not start). */
        void remove(RequestTask t) {
            SLOTS.setRelease(t.chunk, t.slot, (RequestTask) null);
        }

        /** The tasks in flight now. */
        synchronized List<RequestTask> tasks() {
            List<RequestTask> tasks = new ArrayList<>();
            for (RequestTask[] chunk : chunks)
                for (int i = 0; i < chunk.length; i++)
                    if (SLOTS.getAcquire(chunk, i) instanceof RequestTask t) tasks.add(t);
            return tasks;
        }

        /** Cancels the tasks in flight (interrupting a running one), outside the lock: cancelling runs their stages. */
        void cancelAll() {
            for (RequestTask t : tasks()) t.cancel(true);
        }

        /** True when every task has ended, but one running on {@code caller}. */
        synchronized boolean isEmptyBut(Thread caller) {
            for (RequestTask[] chunk : chunks) if (!isClearBut(chunk, caller)) return false;
            return true;
        }

        synchronized int chunks() { return chunks.size(); }
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return new Prediction(d.slowestNanos(Path.SERIAL) + d.cpuFloor(d.cores()),
                d.describe(Path.SERIAL) + " (a virtual thread per request, calls in sequence)", Path.SERIAL);
    }

    /** The requests in flight: the tasks whose slots are not clear yet (for tests). */
    int tasksInFlight() {
        int n = 0;
        for (Stripe s : inFlight) n += s.tasks().size();
        return n;
    }

    /** The chunks of slots kept (for tests). */
    int chunks() {
        int n = 0;
        for (Stripe s : inFlight) n += s.chunks();
        return n;
    }

    /**
     * Refuses new requests, cancels those in flight (interrupting their threads) and waits up to 30 s for their
     * callbacks to have run. Called on a request's own thread (from its callback, say), it waits for every other.
     */
    @Override public void close() {
        closed = true;   // before the stripes' locks: an add that takes one after cancelAll is refused
        for (Stripe s : inFlight) s.cancelAll();
        Thread caller = Thread.currentThread();
        boolean interrupted = Thread.interrupted();   // an interrupted closer would otherwise spin: park returns at once
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (Stripe s : inFlight) {
                while (!s.isEmptyBut(caller)) {
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
