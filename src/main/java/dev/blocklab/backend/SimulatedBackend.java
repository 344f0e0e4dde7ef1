package dev.blocklab.backend;

import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The embedded backend: a blocking call sleeps on the caller's thread, a non-blocking call is a future
 * completed by a timer thread (one per core, chosen by request id). Timer threads only complete futures, so they
 * hold as many pending calls as memory allows and are never the bottleneck for waiting. Work chained on the
 * futures without an executor runs on the timer thread: keep it short (starting the next call, recording a
 * latency), and run anything longer on an executor. Cancelling a call's future removes its timer.
 */
public final class SimulatedBackend implements Backend {
    /** One timer per core, chosen by request id, so completing many calls at once is spread over the cores. */
    private final ScheduledThreadPoolExecutor[] timers;
    private final LongAdder calls = new LongAdder();
    /** Calls started and not yet ended: a blocking call until its sleep ends, a non-blocking one until its timer fires or is removed. */
    private final LongAdder inFlight = new LongAdder();
    private final Queue<CallInvocation> log;

    /** @param recordCalls keep every invocation for {@link #recordedCalls()} (tests and fairness checks) */
    public SimulatedBackend(boolean recordCalls) {
        timers = new ScheduledThreadPoolExecutor[Runtime.getRuntime().availableProcessors()];
        for (int i = 0; i < timers.length; i++) {
            timers[i] = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().name("blocklab-backend-timer-" + i).factory());
            timers[i].setRemoveOnCancelPolicy(true);
        }
        log = recordCalls ? new ConcurrentLinkedQueue<>() : null;
    }

    public SimulatedBackend() { this(false); }

    @Override public String name() { return "simulated"; }

    @Override public Object callBlocking(CallInvocation call) throws Exception {
        started(call);
        sleep(call.waitNanos());
        if (call.timesOut() || call.failure() != null) throw call.newFailure();
        return call.value();
    }

    /**
     * A call that draws nothing (a fixed latency, attempted once, that never fails, with no timeout) is served off
     * its step, without its {@link CallInvocation}, in the same order: the value, then the call counted, then the
     * wait. At a million requests in flight the invocation was 72 bytes a request of the engine's own (peak RSS of
     * the million-job run 1.19-1.35 x the bare floor without it, 1.29-1.44 x with it; docs/benchmarks.md). Any other
     * call, a request with a deadline (kept to the invocation's path, as a {@code FailureMeter} around a run with
     * one does), and every call of a backend that records them go through {@link #callBlocking(CallInvocation)}.
     */
    @Override public Object callBlocking(Request request, int step, List<Object> inputs) throws Exception {
        if (log != null || request.deadlineAtNanos() != 0 || !(request.graph().steps().get(step) instanceof Step.Call c)
                || !(c.latency() instanceof Latency.Fixed fixed) || !(c.attempts() instanceof Step.Attempts.Once)
                || c.failureProbability() > 0 || c.timeoutNanos() > 0 || c.operation() != null)
            return callBlocking(request.invocation(step, inputs));
        Object value = c.returns().apply(inputs, c.inputs());   // before the call, as Request.invocation computes it
        calls.increment();
        sleep(c.scaled(fixed.nanos(), request.timeScaleDivisor()));
        return value;
    }

    /** Holds the caller for {@code wait} ns, counted in flight meanwhile; interruptible, also when there is no wait. */
    private void sleep(long wait) throws InterruptedException {
        inFlight.increment();
        try {
            if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));   // no Duration kept on a waiting stack
            else if (Thread.interrupted()) throw new InterruptedException();
        } finally {
            inFlight.decrement();
        }
    }

    @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
        started(call);
        TimedCall result = new TimedCall(inFlight);
        Runnable complete = () -> {
            inFlight.decrement();
            if (call.timesOut() || call.failure() != null) result.completeExceptionally(call.newFailure());
            else result.complete(call.value());
        };
        long wait = call.waitNanos();
        inFlight.increment();
        if (wait <= 0) {
            complete.run();
            return result;
        }
        result.pending = timers[(int) Math.floorMod(call.requestId(), (long) timers.length)]
                .schedule(complete, coalesced(wait, System.nanoTime()), TimeUnit.NANOSECONDS);
        if (result.isCancelled()) result.removeTimer();
        return result;
    }

    /**
     * The wait of a non-blocking call, its deadline rounded up to the next whole {@link #GRID_NANOS} on the
     * {@code nanoTime} clock when the wait is at least {@link #COALESCE_FROM_NANOS}: calls due within the same
     * millisecond fire together, so a timer thread wakes at most once a millisecond however many calls it holds
     * (at 30,000 calls a second it woke once for each, a futex wait of about 30 us every time), and what their
     * futures start downstream arrives in batches. The cost: a long call lasts up to 1 ms more (0.5 ms on average,
     * at most 1 % of a wait this long); a shorter wait, as under a time scale, stays exact.
     */
    static long coalesced(long waitNanos, long nowNanos) {
        if (waitNanos < COALESCE_FROM_NANOS) return waitNanos;
        long deadline = nowNanos + waitNanos;
        return Math.ceilDiv(deadline, GRID_NANOS) * GRID_NANOS - nowNanos;
    }

    /** The grid to which long waits' deadlines are rounded up. */
    static final long GRID_NANOS = 1_000_000;
    /** The shortest wait whose deadline is rounded: 1 ms in 100 ms or more is at most 1 %. */
    static final long COALESCE_FROM_NANOS = 100_000_000;

    /** A call's future; cancelling it removes its timer (cheaper than a dependent callback on every call). */
    private static final class TimedCall extends CompletableFuture<Object> {
        private final LongAdder inFlight;
        volatile ScheduledFuture<?> pending;

        TimedCall(LongAdder inFlight) { this.inFlight = inFlight; }

        @Override public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            if (cancelled) removeTimer();
            return cancelled;
        }

        /** Removes the pending timer; the call stops being in flight unless the timer had already fired. */
        void removeTimer() {
            ScheduledFuture<?> p = pending;
            if (p != null && p.cancel(false)) inFlight.decrement();
        }
    }

    private void started(CallInvocation call) {
        calls.increment();
        if (log != null) log.add(call);
    }

    @Override public long callsStarted() { return calls.sum(); }

    /**
     * Calls in flight now: blocking calls still sleeping and non-blocking calls whose timer is pending. A call
     * whose caller gave up drops out only when its sleep is interrupted or its timer removed, so this count shows
     * whether a model really cancels what it abandons.
     */
    public long callsInFlight() { return inFlight.sum(); }

    /** Every invocation so far, in the order calls started; empty unless constructed with recordCalls. */
    public java.util.List<CallInvocation> recordedCalls() {
        return log == null ? java.util.List.of() : java.util.List.copyOf(log);
    }

    @Override public void close() {
        for (ScheduledThreadPoolExecutor timer : timers) timer.shutdownNow();
        try {
            for (ScheduledThreadPoolExecutor timer : timers) timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
