package dev.blocklab.experiment;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Seed 000's three ways of writing its task graph, each over timer-completed futures from the backend: the
 * caller joining each future in turn (blocking), one chain of {@code thenCompose}/{@code thenCombine}
 * (non-blocking), and the same graph refactored into one future per task (refactored). They only understand the
 * task-graph workload's steps: task1, task2, task3, sum, task4.
 */
enum TaskGraphStyles {
    BLOCKING("blocking joins", 5008) {
        @Override CompletableFuture<Object> run(Tasks t) {
            try {
                Object v1 = t.task(0, List.of(t.request.graph().input())).join();
                CompletableFuture<Object> f2 = t.task(1, List.of(v1));
                CompletableFuture<Object> f3 = t.task(2, List.of(v1));
                Object sum = t.request.compute(3, List.of(f2.join(), f3.join()));
                return CompletableFuture.completedFuture(t.task(4, List.of(sum)).join());
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    },
    NON_BLOCKING("thenCompose/thenCombine", 5002) {
        @Override CompletableFuture<Object> run(Tasks t) {
            return t.task(0, List.of(t.request.graph().input()))
                    .thenCompose(v1 -> t.task(1, List.of(v1)).thenCombine(t.task(2, List.of(v1)),
                            (a, b) -> t.request.compute(3, List.of(a, b))))
                    .thenCompose(sum -> t.task(4, List.of(sum)));
        }
    },
    REFACTORED("refactored non-blocking", 5001) {
        @Override CompletableFuture<Object> run(Tasks t) {
            CompletableFuture<Object> f1 = t.task(0, List.of(t.request.graph().input()));
            CompletableFuture<Object> f2 = f1.thenCompose(v -> t.task(1, List.of(v)));
            CompletableFuture<Object> f3 = f1.thenCompose(v -> t.task(2, List.of(v)));
            return f2.thenCombine(f3, (a, b) -> t.request.compute(3, List.of(a, b)))
                    .thenCompose(sum -> t.task(4, List.of(sum)));
        }
    };

    final String label;
    /** The article's time for this style, Listing 6's runBlocking, runNonblocking and runNonblockingAlt, in ms. */
    final double articleMillis;

    TaskGraphStyles(String label, double articleMillis) {
        this.label = label;
        this.articleMillis = articleMillis;
    }

    abstract CompletableFuture<Object> run(Tasks tasks);

    /** The style as a model the driver can run. */
    Function<dev.blocklab.model.ModelContext, Model> asModel() {
        return context -> new StyleModel(this, context.backend());
    }

    /** Starts task {@code step} of one request as a timer-completed future. */
    record Tasks(Request request, Backend backend) {
        CompletableFuture<Object> task(int step, List<Object> inputs) {
            return backend.callAsync(request.invocation(step, inputs));
        }
    }

    private record StyleModel(TaskGraphStyles style, Backend backend) implements Model {
        @Override public String name() { return "seed-" + style.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'); }

        @Override public CompletableFuture<Object> submit(Request request) {
            return style.run(new Tasks(request, backend));
        }

        @Override public Prediction predict(Demand d) {
            return new Prediction(d.slowestNanos(Path.CRITICAL), "critical path " + d.describe(Path.CRITICAL), Path.CRITICAL);
        }

        @Override public void close() {}
    }
}
