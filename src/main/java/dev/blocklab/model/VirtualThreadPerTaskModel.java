package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A virtual thread per request, running the same blocking code as the platform-thread models: a blocked
 * virtual thread unmounts from its carrier, so waiting costs no platform thread.
 */
final class VirtualThreadPerTaskModel implements Model {
    private final DirectStyle.BlockingCaller caller;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    VirtualThreadPerTaskModel(Backend backend) { this.caller = backend::callBlocking; }

    @Override public String name() { return "virtual"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return new RequestTask(request).start(executor);
    }

    /** One request on its own virtual thread: the future, the task and the request in one object. */
    private final class RequestTask extends Tasks.OwnThreadTask {
        private final Request request;

        RequestTask(Request request) { this.request = request; }

        @Override Object work() throws Exception { return DirectStyle.evaluate(request, caller); }
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return new Prediction(d.slowestNanos(Path.SERIAL) + d.cpuFloor(d.cores()),
                d.describe(Path.SERIAL) + " (a virtual thread per request, calls in sequence)", Path.SERIAL);
    }

    @Override public void close() { Tasks.shutdown(executor); }
}
