package dev.blocklab.backend;

import dev.blocklab.workload.CallInvocation;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The embedded backend: a blocking call sleeps on the caller's thread, a non-blocking call is a future
 * completed by one timer thread. The timer thread only completes futures, so it holds as many pending calls as
 * memory allows and is never the bottleneck for waiting; work chained on the futures should run elsewhere.
 */
public final class SimulatedBackend implements Backend {
    private final ScheduledThreadPoolExecutor timer;
    private final LongAdder calls = new LongAdder();
    private final Queue<CallInvocation> log;

    /** @param recordCalls keep every invocation for {@link #recordedCalls()} (tests and fairness checks) */
    public SimulatedBackend(boolean recordCalls) {
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "blocklab-backend-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        log = recordCalls ? new ConcurrentLinkedQueue<>() : null;
    }

    public SimulatedBackend() { this(false); }

    @Override public String name() { return "simulated"; }

    @Override public Object callBlocking(CallInvocation call) throws Exception {
        started(call);
        long wait = call.waitNanos();
        if (wait > 0) Thread.sleep(Duration.ofNanos(wait));
        else if (Thread.interrupted()) throw new InterruptedException();
        if (call.timesOut() || call.failure() != null) throw call.newFailure();
        return call.value();
    }

    @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
        started(call);
        CompletableFuture<Object> result = new CompletableFuture<>();
        Runnable complete = () -> {
            if (call.timesOut() || call.failure() != null) result.completeExceptionally(call.newFailure());
            else result.complete(call.value());
        };
        long wait = call.waitNanos();
        if (wait <= 0) {
            complete.run();
            return result;
        }
        ScheduledFuture<?> pending = timer.schedule(complete, wait, TimeUnit.NANOSECONDS);
        result.whenComplete((v, e) -> { if (result.isCancelled()) pending.cancel(false); });
        return result;
    }

    private void started(CallInvocation call) {
        calls.increment();
        if (log != null) log.add(call);
    }

    @Override public long callsStarted() { return calls.sum(); }

    /** Every invocation so far, in the order calls started; empty unless constructed with recordCalls. */
    public java.util.List<CallInvocation> recordedCalls() {
        return log == null ? java.util.List.of() : java.util.List.copyOf(log);
    }

    @Override public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
