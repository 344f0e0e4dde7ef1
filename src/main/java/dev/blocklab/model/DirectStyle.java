package dev.blocklab.model;

import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;

import java.util.List;
import java.util.concurrent.Callable;

/** Runs a request's graph on the current thread, one step after another, as plain blocking code would. */
final class DirectStyle {
    /** No step computed yet: what a lone step reads its inputs from. */
    static final Object[] NO_VALUES = {};

    private DirectStyle() {}

    /** How a blocking model makes one call (plain, or through a ManagedBlocker), and waits a retry's backoff. */
    @FunctionalInterface
    interface BlockingCaller {
        Object call(CallInvocation invocation) throws Exception;

        /** Waits a retry's backoff on the calling thread, blocking as this caller's calls do (here: a plain sleep). */
        default void pause(long nanos) throws Exception { sleep(nanos); }

        /**
         * {@code plain}'s calls and backoffs, each run inside {@code blocking} (a ManagedBlocker, Scala's
         * {@code blocking { }}), so that a pool which makes up for a blocked call makes up for a backoff too.
         */
        static BlockingCaller within(Blocking blocking, BlockingCaller plain) {
            return new BlockingCaller() {
                @Override public Object call(CallInvocation invocation) throws Exception {
                    return blocking.run(() -> plain.call(invocation));
                }

                @Override public void pause(long nanos) throws Exception {
                    if (nanos > 0) blocking.run(() -> { sleep(nanos); return null; });   // no spare thread for no wait
                }
            };
        }
    }

    /** Runs a blocking body the way its pool is told of blocking (see {@link BlockingCaller#within}). */
    @FunctionalInterface
    interface Blocking {
        Object run(Callable<Object> body) throws Exception;
    }

    /** An interruptible sleep of {@code nanos} (none when not positive). */
    static void sleep(long nanos) throws InterruptedException {
        if (nanos > 0) Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    }

    static Object evaluate(Request request, BlockingCaller caller) throws Exception {
        List<Step> steps = request.graph().steps();
        if (steps.size() == 1) return step(request, 0, NO_VALUES, caller);   // a lone step reads only the input
        Object[] values = new Object[steps.size()];
        for (int i = 0; i < steps.size(); i++) values[i] = step(request, i, values, caller);
        return values[values.length - 1];
    }

    /** True when the graph is one call made once (no retry, no hedge), such as seed 004's job. */
    static boolean isLoneCallOnce(Graph graph) {
        List<Step> steps = graph.steps();
        return steps.size() == 1 && steps.getFirst() instanceof Step.Call call && call.attempts() instanceof Step.Attempts.Once;
    }

    /** Computes step {@code i} from the values computed so far; a call makes its attempts ({@link CallAttempts}). */
    static Object step(Request request, int i, Object[] values, BlockingCaller caller) throws Exception {
        List<Object> inputs = request.inputsOf(i, values);
        return request.graph().steps().get(i) instanceof Step.Call
                ? CallAttempts.call(request, i, inputs, caller)
                : request.compute(i, inputs);
    }
}
