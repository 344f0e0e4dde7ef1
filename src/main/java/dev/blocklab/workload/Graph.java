package dev.blocklab.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The steps one request performs, in an order where every step comes after its inputs. The value of the last
 * step is the request's answer.
 *
 * @param input the request's own input value, readable by steps under the name {@value #INPUT}
 * @param steps at least one step, each after the steps it reads
 */
public record Graph(Object input, List<Step> steps) {
    /** The name under which steps read the request's input. */
    public static final String INPUT = "input";

    public Graph {
        steps = List.copyOf(steps);
        if (steps.isEmpty()) throw new IllegalArgumentException("a graph needs at least one step");
        Set<String> seen = new HashSet<>();
        seen.add(INPUT);
        for (Step step : steps) {
            for (String in : step.inputs()) {
                if (!seen.contains(in))
                    throw new IllegalArgumentException("step '" + step.name() + "' reads '" + in
                            + "', which is not an earlier step (or '" + INPUT + "')");
            }
            if (step instanceof Step.Combine(var name, var inputs, Value.Format f)) {
                for (String p : f.placeholders())
                    if (!inputs.contains(p))
                        throw new IllegalArgumentException("step '" + name + "': template names {" + p + "}, which is not one of its inputs " + inputs);
            }
            if (!seen.add(step.name()))
                throw new IllegalArgumentException("step name '" + step.name() + "' is used twice (or is reserved)");
        }
    }

    /** The answer's step. */
    public Step output() { return steps.getLast(); }

    public int callCount() {
        return (int) steps.stream().filter(s -> s instanceof Step.Call).count();
    }

    public int cpuStepCount() {
        return (int) steps.stream().filter(s -> s instanceof Step.Cpu).count();
    }

    /** The sum of the expected latencies of every call: one request's time when its calls run one after another. */
    public long serialNanos() { return serialNanos(1); }

    /** {@link #serialNanos()} at a time scale: simulated calls' latencies divided, real servers' kept ({@link Step.Call#scaled}). */
    public long serialNanos(long timeScaleDivisor) {
        long sum = 0;
        for (Step s : steps) if (s instanceof Step.Call c) sum += expectedNanos(c, timeScaleDivisor);
        return sum;
    }

    /** A call's expected latency at a time scale ({@link Step.Call#scaled}). */
    private static long expectedNanos(Step.Call c, long timeScaleDivisor) {
        long expected = c.scaled(c.latency().expectedNanos(), timeScaleDivisor);
        // a call's first attempt lasts at most its timeout, as RequestTimes counts it for drawn latencies
        return c.timeoutNanos() > 0 ? Math.min(expected, c.scaled(c.timeoutNanos(), timeScaleDivisor)) : expected;
    }

    /** The longest chain of expected call latencies: one request's time when independent calls overlap. */
    public long criticalPathNanos() { return criticalPathNanos(1); }

    /** {@link #criticalPathNanos()} at a time scale (see {@link #serialNanos(long)}). */
    public long criticalPathNanos(long timeScaleDivisor) {
        Map<String, Long> finish = new HashMap<>();
        finish.put(INPUT, 0L);
        long max = 0;
        for (Step s : steps) {
            long start = 0;
            for (String in : s.inputs()) start = Math.max(start, finish.get(in));
            long end = start + (s instanceof Step.Call c ? expectedNanos(c, timeScaleDivisor) : 0);
            finish.put(s.name(), end);
            max = Math.max(max, end);
        }
        return max;
    }

    /**
     * The time of one request that runs its graph level by level, forking each level's steps and joining them
     * before the next level: the sum over {@link #levels()} of each level's longest expected call. At least the
     * critical path; equal to it when every level's longest call lies on the longest chain.
     */
    public long levelledPathNanos() { return levelledPathNanos(1); }

    /** {@link #levelledPathNanos()} at a time scale (see {@link #serialNanos(long)}). */
    public long levelledPathNanos(long timeScaleDivisor) {
        long sum = 0;
        for (List<Integer> level : levels()) {
            long longest = 0;
            for (int i : level) if (steps.get(i) instanceof Step.Call c) longest = Math.max(longest, expectedNanos(c, timeScaleDivisor));
            sum += longest;
        }
        return sum;
    }

    /** The steps grouped by depth: every step of level k reads only steps of levels below k. */
    public List<List<Integer>> levels() {
        Map<String, Integer> depth = new HashMap<>();
        depth.put(INPUT, -1);
        List<List<Integer>> levels = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            int d = 0;
            for (String in : s.inputs()) d = Math.max(d, depth.get(in) + 1);
            depth.put(s.name(), d);
            while (levels.size() <= d) levels.add(new ArrayList<>());
            levels.get(d).add(i);
        }
        return levels.stream().map(List::copyOf).toList();
    }

    /** Index of the step with this name, or -1 for {@value #INPUT}. */
    public int indexOf(String name) {
        if (INPUT.equals(name)) return -1;
        for (int i = 0; i < steps.size(); i++) if (steps.get(i).name().equals(name)) return i;
        throw new IllegalArgumentException("no step named " + name);
    }

    /** A graph of one call. */
    public static Graph singleCall(Step.Call call) {
        return new Graph(0L, List.of(call));
    }

    @Override public boolean equals(Object o) {
        return o instanceof Graph g && Objects.equals(input, g.input) && steps.equals(g.steps);
    }

    @Override public int hashCode() { return Objects.hash(input, steps); }
}
