package dev.blocklab.model;

import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * A call's attempts ({@link Step.Attempts}: once, retried, hedged), made the same way under every model: the
 * graph walkers ({@link DirectStyle}, {@link FutureStyle}) start every call through here, so a model gets retries
 * and hedges without code of its own. Attempt k of a call is {@link Request#invocation(int, List, int)}: its delay
 * and failure are drawn from (seed, request, step, attempt), so the outcome is the same under every model.
 *
 * <p>Blocking form ({@link #call}): a retry waits its backoff on the calling thread (the caller's
 * {@link DirectStyle.BlockingCaller#pause}: an interruptible sleep, inside a ManagedBlocker where the calls are)
 * and calls again there, as plain blocking code does; a hedge needs two calls in flight at once, so its attempts
 * run on virtual threads of their own while the calling thread waits for the first answer (an interrupt of the
 * caller cancels both, interrupting their calls).
 *
 * <p>Non-blocking form ({@link #start}): the attempts are started by the model's own starter, and backoffs and the
 * hedge delay are sleeping virtual threads, which hold no platform thread. The returned future ends
 * with the call's outcome; when it ends, however it ends (an answer, a failure, a cancellation from outside),
 * every attempt still running is cancelled (the hedge's loser) and a pending timer removed.
 */
final class CallAttempts {
    /** A hedged blocking call's attempts: one virtual thread each. */
    private static final Executor OWN_THREAD = task -> Thread.ofVirtual().name("blocklab-hedged-call").start(task);

    private CallAttempts() {}

    /** Makes the call of step {@code step} on the calling thread, with its attempts; returns its value or throws its failure. */
    static Object call(Request request, int step, List<Object> inputs, DirectStyle.BlockingCaller caller) throws Exception {
        Step.Call call = (Step.Call) request.graph().steps().get(step);
        return switch (call.attempts()) {
            case Step.Attempts.Once once -> caller.call(request.invocation(step, inputs));
            case Step.Attempts.Retry retry -> {
                for (int k = 0; ; k++) {
                    try {
                        yield caller.call(request.invocation(step, inputs, k));
                    } catch (Exception e) {
                        if (k + 1 >= retry.attempts() || stoppedFromOutside(e)) throw e;
                        caller.pause(retry.backoffBeforeNanos(k + 1) / request.timeScaleDivisor());
                    }
                }
            }
            case Step.Attempts.Hedge hedge -> {
                CompletableFuture<Object> answer = start(request, step, inputs, invocation -> new Tasks.OwnThreadTask() {
                    @Override Object work() throws Exception { return caller.call(invocation); }
                }.start(OWN_THREAD));
                try {
                    yield answer.get();
                } catch (InterruptedException e) {
                    answer.cancel(true);
                    throw e;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) throw cause;
                    throw e;
                }
            }
        };
    }

    /**
     * Starts the call of step {@code step} with its attempts; {@code starter} starts one attempt and must not block.
     * Cancelling the returned future cancels the attempts in flight and any pending timer.
     */
    static CompletableFuture<Object> start(Request request, int step, List<Object> inputs,
                                           Function<CallInvocation, CompletableFuture<Object>> starter) {
        Step.Call call = (Step.Call) request.graph().steps().get(step);
        if (call.attempts() instanceof Step.Attempts.Once) return starter.apply(request.invocation(step, inputs));
        return new Attempts(request, step, inputs, starter, call.attempts()).begin();
    }

    /** True when a call ended because it was told to stop (an interrupt, a cancellation), which is never retried. */
    private static boolean stoppedFromOutside(Throwable e) {
        if (Thread.currentThread().isInterrupted()) return true;
        for (Throwable c = e; c != null; c = c.getCause())
            if (c instanceof InterruptedException || c instanceof CancellationException) return true;
        return false;
    }

    /**
     * One call's attempts in the non-blocking form; the future is the call's outcome. State is guarded by this
     * object's lock; attempts are started and cancelled outside it.
     */
    private static final class Attempts extends CompletableFuture<Object> {
        private final Request request;
        private final int step;
        private final List<Object> inputs;
        private final Function<CallInvocation, CompletableFuture<Object>> starter;
        private final Step.Attempts how;
        private final List<CompletableFuture<Object>> running = new ArrayList<>(2);
        private Thread timer;
        private Throwable firstAttemptFailure;

        Attempts(Request request, int step, List<Object> inputs,
                 Function<CallInvocation, CompletableFuture<Object>> starter, Step.Attempts how) {
            this.request = request;
            this.step = step;
            this.inputs = inputs;
            this.starter = starter;
            this.how = how;
        }

        CompletableFuture<Object> begin() {
            whenComplete((v, e) -> stop());   // however the call ends, cancelled from outside included
            attempt(0);
            if (how instanceof Step.Attempts.Hedge hedge) after(hedge.afterNanos(), this::hedge);
            return this;
        }

        /** The hedge's moment: a second attempt when the first is still running. */
        private void hedge() {
            synchronized (this) {
                if (isDone() || running.isEmpty()) return;
            }
            attempt(1);
        }

        private void attempt(int k) {
            if (isDone()) return;
            CompletableFuture<Object> f;
            try {
                f = starter.apply(request.invocation(step, inputs, k));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            boolean late;
            synchronized (this) {
                late = isDone();
                if (!late) running.add(f);
            }
            if (late) {
                f.cancel(true);
                return;
            }
            CompletableFuture<Object> attempt = f;
            f.whenComplete((v, e) -> ended(k, attempt, v, e));
        }

        private void ended(int k, CompletableFuture<Object> attempt, Object value, Throwable e) {
            if (e == null) {   // the first answer: the other attempt is cancelled before the request can see it
                stop();
                complete(value);
                return;
            }
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            if (cause instanceof CancellationException) return;   // cancelled by stop(), or with the whole call
            boolean fail;
            Throwable reported = cause;
            synchronized (this) {
                running.remove(attempt);
                if (how instanceof Step.Attempts.Retry retry) {
                    fail = k + 1 >= retry.attempts();
                } else {   // a hedge: fails once no attempt runs, with attempt 0's failure
                    if (k == 0) firstAttemptFailure = cause;
                    fail = running.isEmpty();
                    if (firstAttemptFailure != null) reported = firstAttemptFailure;
                }
            }
            if (fail) {
                stop();
                completeExceptionally(reported);
            }
            else if (how instanceof Step.Attempts.Retry retry) after(retry.backoffBeforeNanos(k + 1), () -> attempt(k + 1));
        }

        /**
         * Runs {@code action} after {@code nanos} (before the time scale) unless the call has ended by then: a virtual
         * thread that sleeps, interrupted by {@link #stop()} (a timer that holds no platform thread).
         */
        private void after(long nanos, Runnable action) {
            long wait = nanos / request.timeScaleDivisor();
            Thread t = Thread.ofVirtual().name("blocklab-call-timer").unstarted(() -> {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;   // the call ended first
                }
                action.run();
            });
            synchronized (this) {
                if (isDone()) return;
                timer = t;
            }
            t.start();
        }

        /** The call has ended: cancels the attempts still running and the pending timer. */
        private void stop() {
            List<CompletableFuture<Object>> rest;
            Thread t;
            synchronized (this) {
                rest = List.copyOf(running);
                running.clear();
                t = timer;
                timer = null;
            }
            if (t != null && t != Thread.currentThread()) t.interrupt();
            for (CompletableFuture<Object> f : rest) if (!f.isDone()) f.cancel(true);
        }
    }
}
