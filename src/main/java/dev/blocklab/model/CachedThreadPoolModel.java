package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Blocking requests on a cached pool: a platform thread for every request that finds no idle one. */
final class CachedThreadPoolModel implements Model {
    private final Backend backend;
    private final ExecutorService pool = Executors.newCachedThreadPool(Tasks.named("cached"));

    CachedThreadPoolModel(Backend backend) { this.backend = backend; }

    @Override public String name() { return "cached"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(pool, () -> DirectStyle.evaluate(request, backend::callBlocking));
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return new Prediction(d.slowestNanos(Path.SERIAL) + d.cpuFloor(d.requests()),
                d.describe(Path.SERIAL) + " (a thread per request, no queue)", Path.SERIAL);
    }

    @Override public void close() { Tasks.shutdown(pool); }
}
