package dev.blocklab.attack;

import dev.blocklab.result.AttackResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThresholdTest {

    @Test
    void parse_latency_inMillis() {
        Threshold t = Threshold.parse("p99>600ms");
        assertThat(t.metric()).isEqualTo("p99");
        assertThat(t.comparison()).isEqualTo(Threshold.Comparison.GT);
        assertThat(t.limit()).isEqualTo(600.0);
        assertThat(Threshold.parse(" p999 >= 1.5s ").limit()).isEqualTo(1500.0);
    }

    @Test
    void parse_successPercent_asFraction() {
        Threshold t = Threshold.parse("success<99%");
        assertThat(t.comparison()).isEqualTo(Threshold.Comparison.LT);
        assertThat(t.limit()).isEqualTo(0.99);
    }

    @Test
    void parse_badConditions_nameTheFlag() {
        assertThatThrownBy(() -> Threshold.parse("p99")).hasMessageStartingWith("--fail-if: 'p99' is not a condition");
        assertThatThrownBy(() -> Threshold.parse("p98>1s")).hasMessageContaining("unknown metric 'p98'");
        assertThatThrownBy(() -> Threshold.parse("p99>600")).hasMessageContaining("needs a duration");
        assertThatThrownBy(() -> Threshold.parse("success<99")).hasMessageContaining("percentage");
        assertThatThrownBy(() -> Threshold.parse("errors>1.5")).hasMessageContaining("errors is a count of requests: give a whole number, not '1.5'");
        assertThat(Threshold.parse("late>=2").limit()).isEqualTo(2);
        assertThatThrownBy(() -> Threshold.parse("success<120%")).hasMessageContaining("above 100%");
        assertThatThrownBy(() -> Threshold.parse("errors>x")).hasMessageContaining("not a non-negative number");
        assertThatThrownBy(() -> Threshold.parse("p99=1s")).hasMessageStartingWith("--fail-if:");
    }

    @Test
    void violation_reportsOnlyConditionsThatHold() {
        AttackResult r = AttackResults.sample(3, 0); // p99 ~ 990ms, success 98.5%, 15 errors, 3 late
        assertThat(Threshold.parse("p99>600ms").violation(r)).hasValueSatisfying(v ->
                assertThat(v).startsWith("fail-if p99>600ms: p99 was 99"));
        assertThat(Threshold.parse("p99>2s").violation(r)).isEmpty();
        assertThat(Threshold.parse("success<99%").violation(r)).hasValue("fail-if success<99%: success was 98.50%");
        assertThat(Threshold.parse("success<98%").violation(r)).isEmpty();
        assertThat(Threshold.parse("errors>0").violation(r)).hasValue("fail-if errors>0: errors was 15");
        assertThat(Threshold.parse("late>=4").violation(r)).isEmpty();
        assertThat(Threshold.parse("late>=3").violation(r)).isPresent();
    }

    @Test
    void instrumentLimited_bareCondition_holdsOnlyOnTheVerdict() {
        Threshold t = Threshold.parse(" Instrument-Limited ");
        assertThat(t.violation(AttackResults.sample(3, 0))).isEmpty();
        assertThat(t.violation(AttackResults.sample(50, 7))).hasValueSatisfying(v ->
                assertThat(v).startsWith("fail-if instrument-limited: INSTRUMENT-LIMITED").contains("7 of 1007 scheduled requests were never sent"));
    }
}
