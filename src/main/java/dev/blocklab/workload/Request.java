package dev.blocklab.workload;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One request of a workload: the graph, the request's id, and the seed from which every call's latency and
 * failure is drawn. The draw for a call depends only on (seed, id, step), never on the order in which a
 * model runs the steps, so every model faces exactly the same calls.
 *
 * @param timeScaleDivisor every simulated call's latency and timeout is divided by this (1: real time); an operation
 *                         on a real server ({@code sql:}, {@code redis:}) runs in real time, its figures whole
 * @param deadlineAtNanos  when the request's deadline passes, as a {@link System#nanoTime} instant, or 0 for none;
 *                         it changes no draw, only the budget a backend is told ({@link CallInvocation#budgetNanos})
 */
public record Request(long id, Graph graph, long seed, long timeScaleDivisor, long deadlineAtNanos) {
    public Request {
        if (timeScaleDivisor < 1) throw new IllegalArgumentException("time scale divisor must be >= 1");
    }

    /** A request with no deadline. */
    public Request(long id, Graph graph, long seed, long timeScaleDivisor) { this(id, graph, seed, timeScaleDivisor, 0); }

    /** This request with a deadline ({@link System#nanoTime} instant). */
    public Request withDeadlineAtNanos(long at) { return new Request(id, graph, seed, timeScaleDivisor, at); }

    /** The call that step {@code stepIndex} makes, given its inputs' values: its first attempt. */
    public CallInvocation invocation(int stepIndex, List<Object> inputs) { return invocation(stepIndex, inputs, 0); }

    /**
     * Attempt {@code attempt} of the call that step {@code stepIndex} makes ({@link Step.Attempts}): attempt 0
     * draws what the call always draws, a later one draws anew from (seed, id, step, attempt).
     */
    public CallInvocation invocation(int stepIndex, List<Object> inputs, int attempt) {
        Step.Call call = (Step.Call) graph.steps().get(stepIndex);
        if (attempt < 0 || attempt >= call.attempts().max())
            throw new IllegalArgumentException("call '" + call.name() + "' makes at most " + call.attempts().max() + " attempts, not attempt " + attempt);
        SplittableRandom random = attemptRandom(call, stepIndex, attempt);
        long delay = drawDelay(call, random);   // first the delay, then whether it fails: the order every draw keeps
        boolean fails = drawFails(call, random);
        Object value = fails ? null : call.returns().apply(inputs, call.inputs());
        boolean rescuable = switch (call.attempts()) {
            case Step.Attempts.Once o -> false;
            case Step.Attempts.Retry r -> attempt < r.attempts() - 1;
            case Step.Attempts.Hedge h -> true;
        };
        return new CallInvocation(call.name(), id, delay, call.scaled(call.timeoutNanos(), timeScaleDivisor), value,
                fails ? call.failure() : null, call.operation(), attempt, rescuable, deadlineAtNanos);
    }

    /**
     * How long call step {@code stepIndex} lasts in this request with all its attempts, in nanoseconds (time scale
     * applied), when each attempt starts as soon as it is due: the same draws as {@link #invocation}, each attempt
     * its delay or its timeout, whichever comes first (a timeout fails the attempt). A retry adds its attempts and
     * backoffs up to the first success; a hedge ends at the first success of attempt 0 or of attempt 1 (sent after
     * the hedge's delay), or, when both fail, at the later failure. Predictions read it. The request's own deadline
     * is not applied.
     */
    public long callNanos(int stepIndex) { return Math.abs(callEndNanos(stepIndex)); }

    /** {@link #callNanos}, negated when the call fails (its attempts all failed, or a hedge's first failed early). */
    public long callEndNanos(int stepIndex) {
        Step.Call call = (Step.Call) graph.steps().get(stepIndex);
        return switch (call.attempts()) {
            case Step.Attempts.Once o -> attemptNanos(call, stepIndex, 0);
            case Step.Attempts.Retry r -> {
                long total = 0;
                for (int k = 0; k < r.attempts(); k++) {
                    if (k > 0) total += r.backoffBeforeNanos(k) / timeScaleDivisor;
                    long t = attemptNanos(call, stepIndex, k);
                    total += Math.abs(t);
                    if (t >= 0) yield total;   // succeeded
                }
                yield -total;   // every attempt failed
            }
            case Step.Attempts.Hedge h -> {
                long first = attemptNanos(call, stepIndex, 0);
                long after = h.afterNanos() / timeScaleDivisor;
                if (Math.abs(first) <= after) yield first;   // answered, or failed, before the hedge was due
                long second = attemptNanos(call, stepIndex, 1);
                long secondEnds = after + Math.abs(second);
                if (first >= 0 && (second < 0 || first <= secondEnds)) yield first;
                if (second >= 0) yield secondEnds;
                yield -Math.max(-first, secondEnds);   // both failed: the call fails when the last one does
            }
        };
    }

    /** Attempt {@code attempt}'s time (its delay, or its timeout when that comes first): negated when it fails. */
    private long attemptNanos(Step.Call call, int stepIndex, int attempt) {
        SplittableRandom random = attemptRandom(call, stepIndex, attempt);
        long delay = drawDelay(call, random);   // in invocation's order
        boolean fails = drawFails(call, random);
        long timeout = call.scaled(call.timeoutNanos(), timeScaleDivisor);
        if (timeout > 0 && delay > timeout) return -Math.max(1, timeout);
        return fails ? -Math.max(1, delay) : delay;
    }

    /** An attempt's delay (time scale applied): its first draw. */
    private long drawDelay(Step.Call call, SplittableRandom random) {
        return call.scaled(call.latency().sampleNanos(random), timeScaleDivisor);
    }

    /** Whether an attempt fails: its draw after the delay's. */
    private static boolean drawFails(Step.Call call, SplittableRandom random) {
        return call.failureProbability() > 0 && random.nextDouble() < call.failureProbability();
    }

    /** The generator of attempt {@code attempt}'s draws: attempt 0's is {@link #random}'s. */
    private SplittableRandom attemptRandom(Step.Call call, int stepIndex, int attempt) {
        return attempt == 0 ? random(call, stepIndex) : new SplittableRandom(mix(seed, id, stepIndex) ^ mix(attempt, id, stepIndex));
    }

    /** The generator of one call's draws, or null when it draws nothing. */
    private SplittableRandom random(Step.Call call, int stepIndex) {
        // A fixed latency that never fails draws nothing: no generator to build (a million requests build a million).
        boolean draws = !(call.latency() instanceof Latency.Fixed) || call.failureProbability() > 0;
        return draws ? new SplittableRandom(mix(seed, id, stepIndex)) : null;
    }

    /** Computes a CPU or combine step on the calling thread. */
    public Object compute(int stepIndex, List<Object> inputs) {
        Step step = graph.steps().get(stepIndex);
        return switch (step) {
            case Step.Combine c -> c.function().apply(inputs, c.inputs());
            case Step.Cpu c -> {
                long checksum = CpuWork.perform(c.kind(), c.size());
                yield switch (inputs.size()) {
                    case 0 -> checksum;
                    case 1 -> inputs.getFirst();
                    default -> new Value.Sum(0).apply(inputs, c.inputs());
                };
            }
            case Step.Call c -> throw new IllegalArgumentException("step '" + c.name() + "' is a call: use invocation()");
        };
    }

    /**
     * The values of step {@code stepIndex}'s inputs, taken from the values computed so far: a fixed-size list (a
     * value may be null). A lone input is a singleton list, 16 bytes where a growable list and its array took 48:
     * at a million requests in flight each one's bytes count (docs/benchmarks.md).
     */
    public List<Object> inputsOf(int stepIndex, Object[] values) {
        List<String> names = graph.steps().get(stepIndex).inputs();
        return switch (names.size()) {
            case 0 -> List.of();
            case 1 -> Collections.singletonList(valueOf(names.getFirst(), values));
            default -> {
                Object[] in = new Object[names.size()];
                for (int i = 0; i < in.length; i++) in[i] = valueOf(names.get(i), values);
                yield Arrays.asList(in);
            }
        };
    }

    /** The value named {@code name}: a step's computed so far, or the graph's input. */
    private Object valueOf(String name, Object[] values) {
        int idx = graph.indexOf(name);
        return idx < 0 ? graph.input() : values[idx];
    }

    private static long mix(long seed, long id, int step) {
        long h = seed * 0x9E3779B97F4A7C15L + id;
        h = (h ^ (h >>> 31)) * 0xBF58476D1CE4E5B9L + step;
        return h ^ (h >>> 29);
    }
}
