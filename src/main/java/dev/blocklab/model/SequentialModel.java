package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;

/** Everything on the caller's thread, blocking: each request runs to completion before {@link #submit} returns. */
final class SequentialModel implements Model {
    private final Backend backend;

    SequentialModel(Backend backend) { this.backend = backend; }

    @Override public String name() { return "sequential"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        try {
            return CompletableFuture.completedFuture(DirectStyle.evaluate(request, backend::callBlocking));
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(t);
        }
    }

    @Override public Prediction predict(Demand d) {
        return new Prediction(d.requests() * (d.serialNanos() + d.cpuNanosPerRequest()),
                d.requests() + " x " + Durations.format(d.serialNanos()) + " (one request at a time)");
    }

    @Override public void close() {}
}
