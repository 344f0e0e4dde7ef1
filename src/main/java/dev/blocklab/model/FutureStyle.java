package dev.blocklab.model;

import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs a request's graph as a chain of futures: each step starts when its inputs complete
 * ({@code thenCompose}/{@code thenCombine} style), so independent calls overlap. Non-call steps run on the
 * given executor; calls are started by {@code starter}, which decides whether they hold a thread. A call starts
 * on whichever thread made its inputs ready: the submitting thread when they are at hand (a batch's first calls
 * are all in flight as soon as it is submitted, with no hop through the executor), otherwise the thread that
 * completed the last input (a backend's timer, for a call that follows a call). Starting a call must not block:
 * a starter hands it to a timer, a client or a pool. The returned future fails at the first failure of any step
 * (fail fast) and succeeds with the last step's value once every step has succeeded. When it completes
 * exceptionally, whether by a failed step or from outside (a deadline, which the request then carries), every
 * pending step and every call already started is cancelled; a starter's future must stop its call when cancelled.
 * A lone call with no deadline is returned as the starter's own future, which cancelling stops. A call's retries and hedge
 * ({@link CallAttempts}) are attempts made through the same starter.
 */
final class FutureStyle {
    private FutureStyle() {}

    static CompletableFuture<Object> evaluate(Request request,
                                              Function<CallInvocation, CompletableFuture<Object>> starter,
                                              Executor executor) {
        List<Step> steps = request.graph().steps();
        List<CompletableFuture<Object>> futures = new ArrayList<>(steps.size());
        // The starters' own futures, which a thenCompose stage does not cancel: cancelling them frees their timers.
        Queue<CompletableFuture<Object>> started = steps.size() > 1 ? new ConcurrentLinkedQueue<>() : null;
        for (int i = 0; i < steps.size(); i++) {
            final int index = i;
            Step step = steps.get(i);
            List<CompletableFuture<Object>> inputs = new ArrayList<>();
            for (String name : step.inputs()) {
                int idx = request.graph().indexOf(name);
                inputs.add(idx < 0 ? CompletableFuture.completedFuture(request.graph().input()) : futures.get(idx));
            }
            List<Object> atHand = step instanceof Step.Call ? valuesIfDone(inputs) : null;
            CompletableFuture<Object> result;
            if (atHand != null) {
                result = start(starter, request, index, atHand);   // inputs at hand: no dependent stage needed
            } else {
                CompletableFuture<List<Object>> ready = all(inputs);
                result = step instanceof Step.Call
                        ? ready.thenCompose(values -> {
                            CompletableFuture<Object> call = CallAttempts.start(request, index, values, starter);
                            if (started != null) started.add(call);
                            return call;
                        })
                        : ready.thenApplyAsync(values -> request.compute(index, values), executor);
            }
            futures.add(result);
        }
        CompletableFuture<Object> last = futures.getLast();
        // A lone call's own future is the request's, unless a deadline may end the request from outside: the driver
        // then completes the request's future exceptionally, which would leave the call's timer pending.
        if (futures.size() == 1 && request.deadlineAtNanos() == 0) return last;
        // The request needs every step (docs/workloads.md, "Failures"): it succeeds with the last step's value once
        // all have succeeded, and fails at the first failure of any step, a branch that feeds nothing included.
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(futures.size());
        AtomicBoolean stopped = new AtomicBoolean();
        // When the request ends early, steps still pending are cancelled, so they start no further calls and hold no
        // further threads, and calls already started are cancelled too (their timers removed, their threads
        // interrupted). At a failure inside, before the request completes, as a structured scope does; the first
        // failure alone stops the rest, so the cancellations it causes do not replace its cause.
        Runnable stopAll = () -> {
            futures.forEach(f -> f.cancel(true));
            if (started != null) started.forEach(f -> f.cancel(true));
        };
        for (CompletableFuture<Object> f : futures) {
            f.whenComplete((v, e) -> {
                if (e != null) {
                    if (!stopped.compareAndSet(false, true)) return;
                    stopAll.run();
                    outcome.completeExceptionally(e);
                } else if (remaining.decrementAndGet() == 0) {
                    outcome.complete(last.join());
                }
            });
        }
        // ended from outside (a deadline, a cancellation): stop the rest afterwards
        outcome.whenComplete((v, e) -> { if (e != null && stopped.compareAndSet(false, true)) stopAll.run(); });
        return outcome;
    }

    /** Starts a call whose inputs are ready; a starter that throws gives a failed future, as thenCompose would. */
    private static CompletableFuture<Object> start(Function<CallInvocation, CompletableFuture<Object>> starter,
                                                   Request request, int index, List<Object> values) {
        try {
            return CallAttempts.start(request, index, values, starter);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Every input's value in order when all have completed normally, otherwise null. */
    private static List<Object> valuesIfDone(List<CompletableFuture<Object>> inputs) {
        List<Object> values = new ArrayList<>(inputs.size());
        for (CompletableFuture<Object> in : inputs) {
            if (!in.isDone() || in.isCompletedExceptionally()) return null;
            values.add(in.join());
        }
        return values;
    }

    /** Completes with every input's value in order, or with the first failure. */
    private static CompletableFuture<List<Object>> all(List<CompletableFuture<Object>> inputs) {
        List<Object> values = valuesIfDone(inputs);
        if (values != null) return CompletableFuture.completedFuture(values);   // all at hand (a batch's first steps)
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
