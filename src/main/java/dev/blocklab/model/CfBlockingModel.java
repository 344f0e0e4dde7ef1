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

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int threads, Demand d) {
        int k = Math.max(1, d.callsPerRequest());
        long meanCall = d.expectedNanos(Path.SERIAL) / k;   // the drawn mean where calls are drawn (retries, hedges)
        long waves = (d.requests() * k + threads - 1) / threads;
        long nanos = Math.max(d.slowestNanos(Path.CRITICAL), waves * meanCall) + d.cpuFloor(threads);
        return new Prediction(nanos, "max(critical path " + d.describe(Path.CRITICAL) + ", ceil("
                + d.requests() + " x " + k + (k == 1 ? " call / " : " calls / ") + threads + ") x " + Durations.format(meanCall) + ")",
                Path.CRITICAL);
    }
}
