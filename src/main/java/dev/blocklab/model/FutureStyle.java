package dev.blocklab.model;

import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Runs a request's graph as a chain of futures: each step starts when its inputs complete
 * ({@code thenCompose}/{@code thenCombine} style), so independent calls overlap. Non-call steps run on the
 * given executor; calls are started by {@code starter}, which decides whether they hold a thread. When the
 * returned future completes exceptionally, whether by a failed step or from outside, every pending step is
 * cancelled.
 */
final class FutureStyle {
    private FutureStyle() {}

    static CompletableFuture<Object> evaluate(Request request,
                                              Function<CallInvocation, CompletableFuture<Object>> starter,
                                              Executor executor) {
        List<Step> steps = request.graph().steps();
        List<CompletableFuture<Object>> futures = new ArrayList<>(steps.size());
        for (int i = 0; i < steps.size(); i++) {
            final int index = i;
            Step step = steps.get(i);
            List<CompletableFuture<Object>> inputs = new ArrayList<>();
            for (String name : step.inputs()) {
                int idx = request.graph().indexOf(name);
                inputs.add(idx < 0 ? CompletableFuture.completedFuture(request.graph().input()) : futures.get(idx));
            }
            CompletableFuture<List<Object>> ready = all(inputs);
            CompletableFuture<Object> result = step instanceof Step.Call
                    ? ready.thenCompose(values -> starter.apply(request.invocation(index, values)))
                    : ready.thenApplyAsync(values -> request.compute(index, values), executor);
            futures.add(result);
        }
        CompletableFuture<Object> last = futures.getLast();
        if (futures.size() == 1) return last;   // nothing else to cancel
        // When the request ends early (a failure, a timeout or a cancellation from outside), steps still pending
        // are cancelled, so they start no further calls and hold no further threads.
        last.whenComplete((v, e) -> { if (e != null) futures.forEach(f -> f.cancel(true)); });
        return last;
    }

    /** Completes with every input's value in order, or with the first failure. */
    private static CompletableFuture<List<Object>> all(List<CompletableFuture<Object>> inputs) {
        if (inputs.stream().allMatch(f -> f.isDone() && !f.isCompletedExceptionally()))
            return CompletableFuture.completedFuture(new ArrayList<>(inputs.stream().map(CompletableFuture::join).toList()));
        CompletableFuture<List<Object>> acc = CompletableFuture.completedFuture(new ArrayList<>());
        for (CompletableFuture<Object> in : inputs) {
            acc = acc.thenCombine(in, (list, v) -> {
                list.add(v);
                return list;
            });
        }
        return acc;
    }
}
