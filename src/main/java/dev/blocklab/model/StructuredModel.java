package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.preview.StructuredConcurrency;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A virtual thread per request that forks the independent steps of each level of its graph as subtasks of a
 * structured task scope and joins them: the first failure cancels its siblings and reaches the caller.
 */
final class StructuredModel implements Model {
    private final Backend backend;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    StructuredModel(Backend backend) { this.backend = backend; }

    @Override public String name() { return "structured"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(executor, () -> evaluate(request));
    }

    private Object evaluate(Request request) throws Exception {
        Object[] values = new Object[request.graph().steps().size()];
        for (List<Integer> level : request.graph().levels()) {
            if (level.size() == 1) {
                int i = level.getFirst();
                values[i] = DirectStyle.step(request, i, values, backend::callBlocking);
                continue;
            }
            List<Callable<Object>> forks = new ArrayList<>();
            for (int i : level) forks.add(() -> DirectStyle.step(request, i, values, backend::callBlocking));
            List<Object> results = StructuredConcurrency.forkAll(forks);
            for (int k = 0; k < level.size(); k++) values[level.get(k)] = results.get(k);
        }
        return values[values.length - 1];
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return new Prediction(d.slowestNanos(Path.LEVELLED) + d.cpuFloor(d.cores()),
                "levels of the graph forked and joined in turn: " + d.describe(Path.LEVELLED), Path.LEVELLED);
    }

    @Override public void close() { Tasks.shutdown(executor); }
}
