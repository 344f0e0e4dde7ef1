package dev.blocklab.experiment;

import dev.blocklab.backend.Backend;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.CallInvocation;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * A backend of {@code workers} workers: at most that many calls are served at once (each for its drawn delay, by
 * the {@link SimulatedBackend}), the others wait in one queue in the order they came. A caller's timeout counts
 * from when the call was sent, the wait in the queue included, and a call whose caller gave up (its timeout, or a
 * cancellation) leaves the queue or its worker at once: a backend that honours the caller's budget. So overload
 * shows as queueing, and work that callers add under overload (retries, hedges) lengthens the queue for everyone.
 * Non-blocking form only ({@code cf-nonblocking}: the workers are the one bound). Thread-safe: state under this
 * object's lock.
 */
final class QueueingBackend implements Backend {
    private final SimulatedBackend simulated = new SimulatedBackend();
    private final ScheduledThreadPoolExecutor timeouts = new ScheduledThreadPoolExecutor(1,
            Thread.ofPlatform().daemon().name("blocklab-queueing-timeouts").factory());
    private final int workers;
    private final Queue<Pending> queue = new ArrayDeque<>();
    private int busy;
    private final LongAdder served = new LongAdder();
    private final LongAdder sent = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();

    QueueingBackend(int workers) {
        if (workers < 1) throw new IllegalArgumentException("workers must be >= 1");
        this.workers = workers;
        timeouts.setRemoveOnCancelPolicy(true);
    }

    @Override public String name() { return "simulated, " + workers + " workers and a queue"; }

    @Override public Object callBlocking(CallInvocation call) {
        throw new UnsupportedOperationException("the queueing backend serves the non-blocking form only");
    }

    @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
        sent.increment();
        Pending p = new Pending(call);
        if (call.timeoutNanos() > 0)
            p.timeout = timeouts.schedule(() -> p.completeExceptionally(new TimeoutException("call '" + call.call()
                    + "' timed out after " + dev.blocklab.workload.Durations.format(call.timeoutNanos()))), call.timeoutNanos(), TimeUnit.NANOSECONDS);
        boolean start;
        synchronized (this) {
            start = busy < workers;
            if (start) busy++;
            else queue.add(p);
        }
        if (start) serve(p);
        p.whenComplete((v, e) -> ended(p));
        return p;
    }

    /**
     * Serves {@code p} on a worker already counted busy: the call's delay, no timeout (the caller's is
     * {@link Pending#timeout}). The worker is released once, when its work ends, however it ends.
     */
    private void serve(Pending p) {
        CallInvocation c = p.call;
        long started = System.nanoTime();
        served.increment();
        CompletableFuture<Object> work = simulated.callAsync(new CallInvocation(c.call(), c.requestId(), c.delayNanos(), 0,
                c.value(), c.failure(), c.operation(), c.attempt(), c.rescuable(), c.deadlineAtNanos()));
        synchronized (p) {
            p.work = work;
        }
        work.whenComplete((v, e) -> {
            if (e != null) p.completeExceptionally(e instanceof java.util.concurrent.CompletionException ? e.getCause() : e);
            else p.complete(v);
            busyNanos.add(System.nanoTime() - started);
            Pending next;
            synchronized (this) {
                while ((next = queue.poll()) != null && next.isDone()) { /* given up while queued */ }
                if (next == null) busy--;
            }
            if (next != null) serve(next);
        });
        if (p.isDone()) work.cancel(false);   // given up while being handed to the worker
    }

    /** A call has ended (answered, failed, timed out, cancelled): it stops its worker, or leaves the queue. */
    private void ended(Pending p) {
        if (p.timeout != null) p.timeout.cancel(false);
        CompletableFuture<Object> work;
        synchronized (p) {
            work = p.work;
        }
        if (work != null) work.cancel(false);   // a worker stops at once when the caller gave up
        else synchronized (this) {
            queue.remove(p);
        }
    }

    /** Calls sent to this backend so far, queued or served. */
    @Override public long callsStarted() { return sent.sum(); }

    /** Calls that reached a worker. */
    long callsServed() { return served.sum(); }

    /** Worker time spent on calls, in milliseconds (summed over workers). */
    double busyMillis() { return busyNanos.sum() / 1e6; }

    @Override public void close() {
        timeouts.shutdownNow();
        simulated.close();
    }

    /** One call as its caller sees it. */
    private static final class Pending extends CompletableFuture<Object> {
        final CallInvocation call;
        volatile ScheduledFuture<?> timeout;
        CompletableFuture<Object> work;   // guarded by this; null while queued
        long startedNanos;

        Pending(CallInvocation call) { this.call = call; }
    }
}
