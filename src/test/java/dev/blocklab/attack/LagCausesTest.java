package dev.blocklab.attack;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LagCausesTest {
    private static final long MS = 1_000_000L;

    @Test
    void plus_countsWaitingFirst_thenRunning_eachWithinTheLateness() {
        LagCauses c = LagCauses.NONE.plus(10 * MS, 3 * MS, 8 * MS);
        assertThat(c).isEqualTo(new LagCauses(10 * MS, 8 * MS, 2 * MS));
        assertThat(c.waitingShare()).isEqualTo(0.8);
        assertThat(c.runningShare()).isEqualTo(0.2);
        // more waiting than lateness (the probe's interval also held ordinary waits): capped at the lateness
        assertThat(LagCauses.NONE.plus(6 * MS, 0, 9 * MS)).isEqualTo(new LagCauses(6 * MS, 6 * MS, 0));
    }

    @Test
    void plus_leavesTheRestStopped() {
        LagCauses c = LagCauses.NONE.plus(30 * MS, MS, 0);   // a loop parked for most of its lateness
        assertThat(c.waitingShare()).isZero();
        assertThat(c.runningShare()).isCloseTo(1.0 / 30, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void plus_ignoresProbesThatWereOnTime_andNegativeDeltas() {
        assertThat(LagCauses.NONE.plus(LagCauses.LATE_NANOS, 5 * MS, 5 * MS)).isEqualTo(LagCauses.NONE);
        assertThat(LagCauses.NONE.plus(7 * MS, -1, -1)).isEqualTo(new LagCauses(7 * MS, 0, 0));
        assertThat(LagCauses.NONE.waitingShare()).isNaN();
        assertThat(LagCauses.NONE.runningShare()).isNaN();
    }

    @Test
    void minus_givesTheWindowBetweenTwoSnapshots() {
        LagCauses early = LagCauses.NONE.plus(8 * MS, 0, 2 * MS);
        LagCauses late = early.plus(new LagCauses(6 * MS, MS, 3 * MS));
        assertThat(late.minus(early)).isEqualTo(new LagCauses(6 * MS, MS, 3 * MS));
    }
}
