package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;

/**
 * Non-blocking composition: calls are futures completed by the backend's timer, composed with
 * {@code thenCompose}/{@code thenCombine}; CPU and combine steps run on a pool of N threads, and a call starts on
 * the thread that made its inputs ready (see {@link FutureStyle}). No thread waits for a call, so a batch takes
 * its critical path however many requests it holds.
 */
final class CfNonBlockingModel extends PooledModel {
    CfNonBlockingModel(Backend backend, int threads) {
        super(backend, "cf-nonblocking", threads, Executors.newFixedThreadPool(threads, Tasks.named("cf-nonblocking")));
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return FutureStyle.evaluate(request, backend::callAsync, pool);
    }

    @Override public Prediction predict(Demand d) {
        return formula(threads, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int threads, Demand d) {
        return new Prediction(d.slowestNanos(Path.CRITICAL) + d.cpuFloor(threads),
                "critical path " + d.describe(Path.CRITICAL) + " (no thread held while waiting)", Path.CRITICAL);
    }
}
