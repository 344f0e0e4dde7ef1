package dev.blocklab.experiment;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RateSearchTest {
    /** A system that holds every rate up to its capacity. */
    private static RateSearch.Verdict<Double> capacity(double capacity, double rate, List<Double> tried) {
        tried.add(rate);
        return new RateSearch.Verdict<>(rate <= capacity, rate <= capacity ? null : "over " + capacity, rate);
    }

    @Test
    void run_doublesUntilFailure_thenHalvesTheGap() {
        List<Double> tried = new ArrayList<>();
        var outcome = new RateSearch(10, 2, 1000, 2, 1).run(r -> capacity(130, r, tried));
        // 10, 20, 40, 80 hold; 160 fails; 120 holds; 140 fails.
        assertThat(tried).containsExactly(10.0, 20.0, 40.0, 80.0, 160.0, 120.0, 140.0);
        assertThat(outcome.highestSustainedPerSecond()).isEqualTo(120);
        assertThat(outcome.lowestFailedPerSecond()).isEqualTo(140);
        assertThat(outcome.highestStep().verdict().measurement()).isEqualTo(120.0);
        assertThat(outcome.failedStep().verdict().reason()).isEqualTo("over 130.0");
        assertThat(outcome.steps()).hasSize(7);
    }

    @Test
    void run_firstRateFails_refinesBelowIt() {
        List<Double> tried = new ArrayList<>();
        var outcome = new RateSearch(10, 2, 1000, 3, 1).run(r -> capacity(4, r, tried));
        // The gap 0..10 is halved too: 5 fails, 3 holds, 4 holds.
        assertThat(tried).containsExactly(10.0, 5.0, 3.0, 4.0);
        assertThat(outcome.highestSustainedPerSecond()).isEqualTo(4);
        assertThat(outcome.lowestFailedPerSecond()).isEqualTo(5);
    }

    @Test
    void run_neverFails_stopsAtTheMaximum() {
        List<Double> tried = new ArrayList<>();
        var outcome = new RateSearch(10, 2, 50, 2, 1).run(r -> capacity(1e9, r, tried));
        assertThat(tried).containsExactly(10.0, 20.0, 40.0, 50.0);
        assertThat(outcome.highestSustainedPerSecond()).isEqualTo(50);
        assertThat(outcome.lowestFailedPerSecond()).isZero();
        assertThat(outcome.failedStep()).isNull();
    }

    @Test
    void run_smallFactor_stillClimbsByAtLeastOne() {
        List<Double> tried = new ArrayList<>();
        new RateSearch(1, 1.4, 4, 0, 1).run(r -> capacity(1e9, r, tried));
        // 1 x 1.4 rounds back to 1: the next rate is 2 all the same, so the search cannot repeat a rate forever.
        assertThat(tried).containsExactly(1.0, 2.0, 3.0, 4.0);
    }

    @Test
    void run_gapOfOne_notRefined() {
        List<Double> tried = new ArrayList<>();
        var outcome = new RateSearch(1, 2, 100, 5, 1).run(r -> capacity(1, r, tried));
        assertThat(tried).containsExactly(1.0, 2.0);
        assertThat(outcome.highestSustainedPerSecond()).isEqualTo(1);
    }

    @Test
    void run_twoAttempts_aSingleNoisyFailureDoesNotEndTheSearch() {
        List<Double> tried = new ArrayList<>();
        int[] calls = {0};
        // Capacity 100, but the very first run at 40 req/s is disturbed.
        var outcome = new RateSearch(10, 2, 1000, 0, 2).run(r -> {
            tried.add(r);
            boolean noisy = r == 40 && calls[0]++ == 0;
            return new RateSearch.Verdict<>(r <= 100 && !noisy, noisy ? "noise" : null, r);
        });
        assertThat(tried).containsExactly(10.0, 20.0, 40.0, 40.0, 80.0, 160.0, 160.0);
        assertThat(outcome.highestSustainedPerSecond()).isEqualTo(80);
        assertThat(outcome.lowestFailedPerSecond()).isEqualTo(160);
        assertThat(outcome.steps()).filteredOn(s -> !s.verdict().sustained()).hasSize(3);
    }

    @Test
    void constructor_badArguments_rejected() {
        assertThatThrownBy(() -> new RateSearch(10, 2, 50, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateSearch(0.4, 2, 10, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateSearch(1, 1, 10, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RateSearch(10, 2, 5, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
