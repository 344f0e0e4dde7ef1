package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.experiment.FrameworksCapacityExperiment.CapacityRow;
import dev.blocklab.experiment.FrameworksCapacityExperiment.StepRow;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A tiny rate search over two variants: every step judged by the rule, the outcome consistent with the steps. */
class FrameworksCapacityExperimentTest {

    @Test
    void run_tinySearch_verdictsFollowTheRuleAndTheOutcomeFollowsTheSteps() {
        var plan = new FrameworksCapacityExperiment.Plan(20_000_000L, 300_000_000L, new RateSearch(20, 2, 40, 1, 1),
                2_000, 1_000, List.of("sequential", "reactor"));
        List<Object> streamed = new ArrayList<>();
        ExperimentResult result = new FrameworksCapacityExperiment(plan, FrameworkVariants::all)
                .run(new ExperimentSettings(false, 1, Progress.NONE, streamed::add, Environment.current()));

        assertThat(result.rows()).isEqualTo(streamed).hasSize(2);
        List<CapacityRow> rows = result.rows().stream().map(CapacityRow.class::cast).toList();
        assertThat(rows).extracting(CapacityRow::variant).containsExactly("sequential", "reactor");
        for (CapacityRow row : rows) {
            assertThat(row.unavailable()).isNull();
            assertThat(row.steps()).isNotEmpty();
            assertThat(row.steps().getFirst().ratePerSecond()).isEqualTo(20);
            for (StepRow s : row.steps()) {
                // An open run of 0.3 s at R req/s sends 0.3 R requests.
                assertThat(s.requests()).as(row.variant() + " at " + s.ratePerSecond()).isEqualTo(Math.round(0.3 * s.ratePerSecond()));
                assertThat(s.sustained()).isEqualTo(s.successRatio() == 1.0 && s.p99Millis() <= s.p99LimitMillis());
                assertThat(s.p99LimitMillis()).as("2 x at least the 20 ms critical path").isGreaterThanOrEqualTo(40.0);
            }
            double highest = row.steps().stream().filter(StepRow::sustained).mapToDouble(StepRow::ratePerSecond).max().orElse(0);
            assertThat(row.highestSustainedPerSecond()).isEqualTo(highest);
            if (highest > 0) assertThat(row.atHighest().ratePerSecond()).isEqualTo(highest);
        }
        // Sequential makes its calls in series, so its unloaded latency and limit are the larger.
        assertThat(rows.get(0).steps().getFirst().p99LimitMillis()).isGreaterThan(rows.get(1).steps().getFirst().p99LimitMillis());
        assertThat(result.tables()).hasSize(2);
        assertThat(result.tables().get(1).rows()).hasSize(rows.stream().mapToInt(r -> r.steps().size()).sum());
    }
}
