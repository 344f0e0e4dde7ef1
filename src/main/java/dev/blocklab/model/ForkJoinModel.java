package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * Blocking requests on a ForkJoinPool of N workers with plain blocking calls: the pool does not know its
 * workers are blocked, so it never adds threads (Scala's global execution context without {@code blocking}).
 */
final class ForkJoinModel implements Model {
    private final Backend backend;
    private final int parallelism;
    private final ForkJoinPool pool;

    ForkJoinModel(Backend backend, int parallelism) {
        this.backend = backend;
        this.parallelism = parallelism;
        this.pool = new ForkJoinPool(parallelism);
    }

    @Override public String name() { return "forkjoin:" + parallelism; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(pool, () -> DirectStyle.evaluate(request, backend::callBlocking));
    }

    @Override public Prediction predict(Demand d) {
        return new Prediction(d.scheduleNanos(parallelism, Path.SERIAL), d.scheduleText(String.valueOf(parallelism), Path.SERIAL), Path.SERIAL);
    }

    @Override public void close() { Tasks.shutdown(pool); }
}
