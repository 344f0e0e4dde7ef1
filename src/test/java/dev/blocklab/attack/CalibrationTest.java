package dev.blocklab.attack;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The calibration ladder as pure logic over a measuring function: no attack runs. */
class CalibrationTest {

    @Test
    void climb_stopsAtTheFirstInaccurateRate_andKeepsTheHighestAccurate() {
        List<Double> asked = new ArrayList<>();
        // sample(3, 0): healthy but 98.5 % success; so "accurate" here needs a healthy, fully successful result
        Calibration c = Calibration.climb(List.of(100.0, 200.0, 300.0, 400.0), rate -> {
            asked.add(rate);
            return rate <= 200 ? AttackResults.perfect(rate) : AttackResults.sample(50, 7);
        }, line -> {});
        assertThat(asked).as("the inaccurate rate tried twice").containsExactly(100.0, 200.0, 300.0, 300.0);
        assertThat(c.highestAccuratePerSecond()).isEqualTo(200.0);
        assertThat(c.steps()).extracting(Calibration.Step::accurate).containsExactly(true, true, false, false);
        String text = c.render();
        assertThat(text).contains("Highest accurate rate on this machine: 200 requests/s");
        assertThat(text).contains("no: 7 of 1007 scheduled requests were never sent");
    }

    @Test
    void climb_aRateAccurateOnItsSecondTry_isPassedAndTheLadderGoesOn() {
        List<Double> asked = new ArrayList<>();
        int[] triesAt200 = {0};
        Calibration c = Calibration.climb(List.of(100.0, 200.0, 300.0), rate -> {
            asked.add(rate);
            if (rate == 200 && triesAt200[0]++ == 0) return AttackResults.sample(50, 7); // a hiccup
            return rate <= 200 ? AttackResults.perfect(rate) : AttackResults.sample(50, 7);
        }, line -> {});
        assertThat(asked).containsExactly(100.0, 200.0, 200.0, 300.0, 300.0);
        assertThat(c.highestAccuratePerSecond()).isEqualTo(200.0);
        assertThat(c.steps()).extracting(Calibration.Step::accurate).containsExactly(true, false, true, false, false);
        assertThat(c.render()).contains("the next rate tried was not accurate, twice");
    }

    @Test
    void accurate_needsFullSuccessAndTheAskedRate() {
        assertThat(Calibration.accurate(100, AttackResults.perfect(100))).isTrue();
        assertThat(Calibration.accurate(200, AttackResults.perfect(100))).as("sent half the asked rate").isFalse();
        assertThat(Calibration.accurate(100, AttackResults.sample(3, 0))).as("98.5 % success").isFalse();
    }
}
