package dev.blocklab.cli;

import dev.blocklab.driver.Progress;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Overall progress of a command made of steps (the experiments of {@code reproduce}, the models of {@code run}):
 * each progress line is prefixed with the step, the share done and the time left, e.g.
 * {@code experiment 2/3 frameworks, 40 %, ~35 s left | ...}. The time left comes from an estimate per step (the
 * step's duration the last time it ran at this scale, or a model's predicted wall time), corrected by how the
 * finished steps compared with their estimates; a step with no estimate, or past its estimate, says so instead of
 * guessing. Time is injected ({@code nanoTime}), so tests drive it with a fake clock.
 */
final class OverallProgress implements Progress {
    private final Progress out;
    private final LongSupplier nanoTime;
    private final String unit;
    private final List<String> names;
    private final long[] estimateNanos;
    private final long[] actualNanos;
    private int current = -1;
    private long stepStartNanos;

    /**
     * @param unit          what a step is, e.g. {@code experiment}
     * @param names         each step's name, in order
     * @param estimateNanos each step's expected duration in nanoseconds; zero or less when unknown
     */
    OverallProgress(Progress out, LongSupplier nanoTime, String unit, List<String> names, long[] estimateNanos) {
        if (names.size() != estimateNanos.length) throw new IllegalArgumentException(names.size() + " steps, " + estimateNanos.length + " estimates");
        this.out = out;
        this.nanoTime = nanoTime;
        this.unit = unit;
        this.names = List.copyOf(names);
        this.estimateNanos = estimateNanos.clone();
        this.actualNanos = new long[estimateNanos.length];
        Arrays.fill(actualNanos, -1);
    }

    /** Step {@code index} (from 0) starts now; shows its status at once. */
    synchronized void begin(int index) {
        current = index;
        stepStartNanos = nanoTime.getAsLong();
        out.update(status());
    }

    /** The current step has finished; returns how long it took, in nanoseconds. */
    synchronized long end() {
        long took = nanoTime.getAsLong() - stepStartNanos;
        if (current >= 0) actualNanos[current] = took;
        return took;
    }

    @Override public void update(String line) { out.update(status() + " | " + line); }

    /** {@code experiment 2/3 frameworks, 40 %, ~35 s left}, or with no estimate {@code ..., 12 s in, no estimate ...}. */
    synchronized String status() {
        if (current < 0) return unit + " 0/" + names.size();
        long now = nanoTime.getAsLong();
        long elapsed = now - stepStartNanos;
        String head = String.format(Locale.ROOT, "%s %d/%d %s", unit, current + 1, names.size(), names.get(current));
        long doneActual = 0, doneEstimate = 0;
        for (int i = 0; i < current; i++)
            if (actualNanos[i] >= 0) {
                doneActual += actualNanos[i];
                if (estimateNanos[i] > 0) doneEstimate += estimateNanos[i];
            }
        double correction = doneEstimate > 0 ? (double) doneActual / doneEstimate : 1;
        if (estimateNanos[current] <= 0)
            return head + ", " + seconds(elapsed) + " s in, no estimate yet (" + names.get(current) + " has not run at this scale before)";
        double expectedHere = correction * estimateNanos[current];
        int unknown = firstWithoutEstimateAfter(current);
        String noEstimate = unknown < 0 ? "" : "no estimate yet for the rest (" + names.get(unknown) + " has not run at this scale before)";
        double rest = 0;
        for (int i = current + 1; i < names.size(); i++) rest += correction * Math.max(0, estimateNanos[i]);
        if (elapsed > expectedHere) {   // an overloaded model drains its backlog long after its predicted wall time:
            // a share or a time left would read as nearly done, so say how far past its estimate the step is
            String line = head + ", " + seconds(elapsed) + " s in, past its estimate of "
                    + (expectedHere < 0.5e9 ? "under 1 s" : "~" + seconds((long) expectedHere) + " s");
            if (current + 1 == names.size()) return line;
            return line + "; " + (unknown >= 0 ? noEstimate : "~" + seconds((long) rest) + " s for the rest");
        }
        double leftHere = expectedHere - elapsed;
        if (unknown >= 0) {   // this step's own share and time left; the rest unknown
            int percent = (int) Math.min(99, Math.floor(100 * elapsed / Math.max(1, elapsed + leftHere)));
            return head + ", " + percent + " % of it, ~" + seconds((long) leftHere) + " s left in it; " + noEstimate;
        }
        double left = leftHere + rest;
        double done = doneActual + elapsed;
        int percent = (int) Math.min(99, Math.floor(100 * done / Math.max(1, done + left)));
        return head + ", " + percent + " %, ~" + seconds((long) left) + " s left";
    }

    /** The first step after {@code step} without an estimate, or -1. */
    private int firstWithoutEstimateAfter(int step) {
        for (int i = step + 1; i < names.size(); i++) if (estimateNanos[i] <= 0) return i;
        return -1;
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%d", Math.round(nanos / 1e9));
    }
}
