package dev.blocklab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Finds the highest open-loop rate a system sustains: rates rise geometrically from {@code startPerSecond} until
 * one fails, then the gap between the last rate that held and the first that failed is halved
 * {@code refinements} times. Whether a rate holds is the measurement's own verdict, so the search is pure logic
 * and is tested without running anything. Assumes that a system which fails at a rate fails at every higher one;
 * on a noisy machine a single step can break that, so a rate counts as failed only after {@code attempts} runs
 * in a row failed at it (every run is in the steps' list).
 *
 * @param startPerSecond first rate tried
 * @param factor         each rate is the previous one times this (rounded, and at least one more), until one fails
 * @param maxPerSecond   the search stops climbing here (the answer is then "at least" this)
 * @param refinements    halvings of the gap between the last pass and the first failure
 * @param attempts       runs at a rate before it counts as failed (1: no retry)
 */
public record RateSearch(double startPerSecond, double factor, double maxPerSecond, int refinements, int attempts) {
    public RateSearch {
        if (startPerSecond < 1 || factor <= 1 || maxPerSecond < startPerSecond || refinements < 0 || attempts < 1)
            throw new IllegalArgumentException("rate search needs start >= 1, factor > 1, max >= start, refinements >= 0, attempts >= 1");
    }

    /** What one step measured: did the rate hold, and why not. */
    public record Verdict<T>(boolean sustained, String reason, T measurement) {}

    /** One rate tried, in the order tried. */
    public record Step<T>(double ratePerSecond, Verdict<T> verdict) {}

    /**
     * The search's outcome.
     *
     * @param highestSustainedPerSecond the highest rate that held, which the refinements may find below the first
     *                                  rate when that one failed; 0 when no rate tried held
     * @param lowestFailedPerSecond     the lowest rate that failed, or 0 when none failed up to the maximum
     */
    public record Outcome<T>(double highestSustainedPerSecond, double lowestFailedPerSecond, List<Step<T>> steps) {
        /** The step at the highest sustained rate, or null. */
        public Step<T> highestStep() {
            return steps.stream().filter(s -> s.verdict().sustained() && s.ratePerSecond() == highestSustainedPerSecond)
                    .findFirst().orElse(null);
        }

        /** The last run at the lowest failed rate, or null. */
        public Step<T> failedStep() {
            return steps.stream().filter(s -> !s.verdict().sustained() && s.ratePerSecond() == lowestFailedPerSecond)
                    .reduce((first, last) -> last).orElse(null);
        }
    }

    /** Runs the search; {@code measure} runs the system at a rate (requests per second) and judges it. */
    public <T> Outcome<T> run(DoubleFunction<Verdict<T>> measure) {
        List<Step<T>> steps = new ArrayList<>();
        double pass = 0;
        double fail = 0;
        for (double rate = startPerSecond; ; rate = Math.min(maxPerSecond, Math.max(rate + 1, Math.round(rate * factor)))) {
            Verdict<T> v = attempt(rate, measure, steps);
            if (!v.sustained()) {
                fail = rate;
                break;
            }
            pass = rate;
            if (rate >= maxPerSecond) break;
        }
        for (int i = 0; i < refinements && fail > 0 && fail - pass > 1; i++) {
            double rate = Math.round((pass + fail) / 2);
            if (rate <= pass || rate >= fail) break;
            Verdict<T> v = attempt(rate, measure, steps);
            if (v.sustained()) pass = rate;
            else fail = rate;
        }
        return new Outcome<>(pass, fail, List.copyOf(steps));
    }

    /** Measures a rate up to {@code attempts} times, stopping at the first run that holds. */
    private <T> Verdict<T> attempt(double rate, DoubleFunction<Verdict<T>> measure, List<Step<T>> steps) {
        Verdict<T> v = null;
        for (int i = 0; i < attempts && (v == null || !v.sustained()); i++) {
            v = measure.apply(rate);
            steps.add(new Step<>(rate, v));
        }
        return v;
    }
}
