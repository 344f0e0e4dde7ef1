package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Blocking requests on a fixed pool of platform threads; requests beyond the pool size wait in its queue. */
final class FixedThreadPoolModel implements Model {
    private final Backend backend;
    private final int threads;
    private final ExecutorService pool;

    FixedThreadPoolModel(Backend backend, int threads) {
        this.backend = backend;
        this.threads = threads;
        this.pool = Executors.newFixedThreadPool(threads, Tasks.named("fixed"));
    }

    @Override public String name() { return "fixed:" + threads; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(pool, () -> DirectStyle.evaluate(request, backend::callBlocking));
    }

    @Override public Prediction predict(Demand d) {
        return new Prediction(d.scheduleNanos(threads, Path.SERIAL), d.scheduleText(String.valueOf(threads), Path.SERIAL), Path.SERIAL);
    }

    @Override public void close() { Tasks.shutdown(pool); }
}
