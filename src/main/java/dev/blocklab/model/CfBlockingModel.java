package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

/**
 * Asynchronous composition over blocking calls (the talk's "async blocking"): every call is a task on the pool
 * (as {@code supplyAsync(blockingCall, pool)}, but interruptible: a cancelled call stops sleeping), composed
 * with {@code thenCompose}/{@code thenCombine}. Independent
 * calls overlap, but each call holds one of the pool's N threads for its whole delay.
 */
final class CfBlockingModel extends PooledModel {
    CfBlockingModel(Backend backend, int threads) {
        super(backend, "cf-blocking", threads, Executors.newFixedThreadPool(threads, Tasks.named("cf-blocking")));
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return FutureStyle.evaluate(request,
                // not supplyAsync: cancelling its future does not interrupt the call, which would run on for nobody
                inv -> Tasks.submitInterruptibly(pool, () -> backend.callBlocking(inv)),
                pool);
    }

    @Override public Prediction predict(Demand d) {
        return formula(threads, d);
    }

    /**
     * {@link #predict} without an instance: the registry entry's prediction. A call holds its thread until it ends or
     * until the request's first failure interrupts it (the model cancels the calls alongside), so no longer than the
     * request's own time, its critical path, which ends at that failure: a request holds {@code min(its calls' total,
     * calls x its critical path)} of thread time, e.g. 6 ms, not 232 ms, for calls of 30 ms, 200 ms and a failure at 2 ms.
     */
    static Prediction formula(int threads, Demand d) {
        int k = Math.max(1, d.callsPerRequest());
        long critical = d.expectedNanos(Path.CRITICAL);
        long held = Math.min(d.expectedNanos(Path.SERIAL), k * critical);   // the drawn means where calls are drawn (retries, hedges)
        long meanCall = held / k;
        long waves = (d.requests() * k + threads - 1) / threads;
        long nanos = Math.max(d.slowestNanos(Path.CRITICAL), waves * meanCall) + d.cpuFloor(threads);
        String call = held < d.expectedNanos(Path.SERIAL)
                ? Durations.format(meanCall) + " (each call held until the first failure cancels it, at " + Durations.format(critical) + ")"
                : Durations.format(meanCall);
        return new Prediction(nanos, "max(critical path " + d.describe(Path.CRITICAL) + ", ceil("
                + d.requests() + " x " + k + (k == 1 ? " call / " : " calls / ") + threads + ") x " + call + ")",
                Path.CRITICAL);
    }
}
