package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
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
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        if (d.drawnPerRequest())
            return new Prediction(d.scheduleNanos(1, Path.SERIAL), "the sum of " + d.requests() + " requests' times, one at a time ("
                    + d.describe(Path.SERIAL) + ")", Path.SERIAL);
        return new Prediction(d.requests() * (d.expectedNanos(Path.SERIAL) + d.cpuNanosPerRequest()),
                d.requests() + " x " + d.describe(Path.SERIAL) + " (one request at a time)", Path.SERIAL);
    }

    @Override public void close() {}
}
