package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

/**
 * Asynchronous composition over blocking calls (the talk's "async blocking"): every call is
 * {@code supplyAsync(blockingCall, pool)}, composed with {@code thenCompose}/{@code thenCombine}. Independent
 * calls overlap, but each call holds one of the pool's N threads for its whole delay.
 */
final class CfBlockingModel extends PooledModel {
    CfBlockingModel(Backend backend, int threads) {
        super(backend, "cf-blocking", threads, Executors.newFixedThreadPool(threads, Tasks.named("cf-blocking")));
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return FutureStyle.evaluate(request,
                inv -> CompletableFuture.supplyAsync(() -> Tasks.unchecked(() -> backend.callBlocking(inv)), pool),
                pool);
    }

    @Override public Prediction predict(Demand d) {
        int k = Math.max(1, d.callsPerRequest());
        long meanCall = d.serialNanos() / k;
        long waves = (d.requests() * k + threads - 1) / threads;
        long nanos = Math.max(d.criticalPathNanos(), waves * meanCall) + d.cpuFloor(threads);
        return new Prediction(nanos, "max(critical path " + Durations.format(d.criticalPathNanos()) + ", ceil("
                + d.requests() + " x " + k + (k == 1 ? " call / " : " calls / ") + threads + ") x " + Durations.format(meanCall) + ")");
    }
}
