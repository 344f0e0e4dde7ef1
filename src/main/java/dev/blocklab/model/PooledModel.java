package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * What the models on a pool of N threads share: the backend, the pool, the name {@code family:N} and closing.
 * By default a request runs as plain blocking code on one of the pool's threads and the prediction is in waves of
 * N; a model that composes futures on the pool overrides {@link #submit} and {@link #predict}.
 */
abstract class PooledModel implements Model {
    final Backend backend;
    final int threads;
    final ExecutorService pool;
    private final String family;

    PooledModel(Backend backend, String family, int threads, ExecutorService pool) {
        this.backend = backend;
        this.family = family;
        this.threads = threads;
        this.pool = pool;
    }

    @Override public String name() { return family + ":" + threads; }

    /** The request as blocking code on one of the pool's threads. */
    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(pool, () -> DirectStyle.evaluate(request, backend::callBlocking));
    }

    /** N requests at a time, each holding its thread for its calls in sequence. */
    @Override public Prediction predict(Demand d) {
        return formula(threads, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int threads, Demand d) {
        return new Prediction(d.scheduleNanos(threads, Path.SERIAL), d.scheduleText(String.valueOf(threads), Path.SERIAL), Path.SERIAL);
    }

    @Override public void close() { Tasks.shutdown(pool); }
}
