package dev.blocklab.attack;

import dev.blocklab.load.SendLoop;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.InstrumentHealth;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The recorder with injected times: what a report counts for requests that never completed. */
class AttackRecorderTest {
    private static final long MS = 1_000_000L;
    private static final String CUT = Attack.CUT_OFF_ERROR;
    private static final SendLoop.Outcome LOOP = new SendLoop.Outcome(3, 0, 0, 0, 20 * MS, true);

    /** Request 0 (due 0, sent 1 ms) and 2 (due 20 ms, sent 25 ms) never complete; 1 (due 10, sent 10) after 5 ms. */
    private static AttackRecorder threeSentOneCompleted() {
        AttackRecorder r = new AttackRecorder();
        r.sent(0, 0, 0, MS, 7);
        r.sent(1, 0, 10 * MS, 10 * MS, 7);
        r.sent(2, 0, 20 * MS, 25 * MS, 7);
        assertThat(r.record(new Hit(1, 0, 10 * MS, 10 * MS, 5 * MS, 5 * MS, 200, 3, 7, null), 15 * MS)).isTrue();
        return r;
    }

    @Test
    void result_requestsInFlight_countInTheHistogramsUpToTheReport() {
        AttackResult a = threeSentOneCompleted().result("t", LOOP, MS, 1000 * MS, CUT, InstrumentHealth.Measured.none(2), 0);

        assertThat(a.requests()).isEqualTo(3);
        assertThat(a.cutOff()).isEqualTo(2);
        assertThat(a.latencyMillis().count()).isEqualTo(3);
        assertThat(a.serviceTimeMillis().count()).isEqualTo(3);
        // The worst: request 0, due at 0, still waiting at the report (1000 ms); HdrHistogram keeps 3 digits.
        assertThat(a.latencyMillis().max()).isBetween(1000.0, 1001.0);
        assertThat(a.serviceTimeMillis().max()).isBetween(999.0, 1000.0);
        assertThat(a.latencyMillis().min()).isBetween(4.99, 5.01);
        Histogram h = a.latencyHistogramNanos();
        assertThat(h.getCountBetweenValues(980 * MS, 981 * MS)).as("request 2: 1000 - 20 ms").isEqualTo(1);
        // The error counting is unchanged: status 0 with the cut-off text, one per request.
        assertThat(a.statusCodes()).containsExactly(Map.entry(0, 2L), Map.entry(200, 1L));
        assertThat(a.errors()).containsExactly(Map.entry(CUT, 2L));
        assertThat(a.errorCount()).isEqualTo(2);
        assertThat(a.successes()).isEqualTo(1);
        assertThat(a.waitNanos()).as("the wait ends at the last real response (15 ms, before the last send), not at the report").isZero();
        assertThat(a.bytesOut()).isEqualTo(21);
    }

    @Test
    void cutOff_returnsTheHitsOnceAndIgnoresTheirLateResponses() {
        AttackRecorder r = threeSentOneCompleted();
        List<Hit> hits = r.cutOff(500 * MS, CUT);

        assertThat(hits).extracting(Hit::index).containsExactly(0L, 2L);
        assertThat(hits).extracting(Hit::latencyNanos).containsExactly(500 * MS, 480 * MS);
        assertThat(hits).extracting(Hit::serviceNanos).containsExactly(499 * MS, 475 * MS);
        assertThat(hits).allMatch(h -> h.status() == 0 && CUT.equals(h.error()) && h.bytesOut() == 7);
        assertThat(r.cutOff(600 * MS, CUT)).as("nothing left in flight").isEmpty();
        assertThat(r.completedCount()).isEqualTo(r.sentCount());

        // Request 2's response arrives after the cut-off: not counted a second time.
        assertThat(r.record(new Hit(2, 0, 20 * MS, 25 * MS, 700 * MS, 695 * MS, 200, 3, 7, null), 720 * MS)).isFalse();
        AttackResult a = r.result("t", LOOP, MS, 800 * MS, CUT, InstrumentHealth.Measured.none(2), 0);
        assertThat(a.cutOff()).isEqualTo(2);
        assertThat(a.latencyMillis().count()).isEqualTo(3);
        assertThat(a.latencyMillis().max()).as("as of the cut-off, not the later report").isBetween(500.0, 501.0);
        assertThat(a.statusCodes()).containsExactly(Map.entry(0, 2L), Map.entry(200, 1L));
    }

    @Test
    void result_everythingCompleted_nothingCutOff() {
        AttackRecorder r = new AttackRecorder();
        r.sent(0, 0, 0, 0, 0);
        r.record(new Hit(0, 0, 0, 0, 2 * MS, 2 * MS, 200, 3, 0, null), 2 * MS);
        AttackResult a = r.result("t", LOOP, MS, 1000 * MS, CUT, InstrumentHealth.Measured.none(2), 0);
        assertThat(a.cutOff()).isZero();
        assertThat(a.errors()).isEmpty();
        assertThat(a.latencyMillis().max()).isBetween(2.0, 2.01);
    }

    @Test
    void result_latencyFromTheActualSend_leavesOutOnlyTheSendLateness() {
        // Request 0 left on time and took 10 ms; request 1 left 30 ms late (the attacker's own delay) and its
        // response came 40 ms after it was due: 10 ms from its actual send, which is what vegeta or wrk would report.
        AttackRecorder r = new AttackRecorder();
        r.sent(0, 0, 0, 0, 0);
        r.sent(1, 0, 100 * MS, 130 * MS, 0);
        r.record(new Hit(0, 0, 0, 0, 10 * MS, 10 * MS, 200, 3, 0, null), 10 * MS);
        r.record(new Hit(1, 0, 100 * MS, 130 * MS, 40 * MS, 8 * MS, 200, 3, 0, null), 140 * MS);
        AttackResult a = r.result("t", LOOP, MS, 1000 * MS, CUT, InstrumentHealth.Measured.none(2), 0);

        assertThat(a.latencyMillis().max()).isBetween(40.0, 40.1);
        var fromSend = a.health().delays().latencyFromSendMillis();
        assertThat(fromSend.count()).isEqualTo(2);
        assertThat(fromSend.max()).as("the late request counts 40 - 30 ms").isCloseTo(10.0, org.assertj.core.api.Assertions.within(0.02));
        assertThat(fromSend.min()).isCloseTo(10.0, org.assertj.core.api.Assertions.within(0.02));
        assertThat(a.health().delays().sendLatenessMillis().max()).isBetween(30.0, 30.1);
    }

    @Test
    void attackResultConstructor_cutOffBeyondRequests_isRejected() {   // the result's own check (AttackRecorder has no such constructor)
        assertThatThrownBy(() -> AttackResults.sample(0, 0, 1001)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1000 sent");
    }
}
