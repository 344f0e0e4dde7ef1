package dev.blocklab.attack;

import dev.blocklab.load.FakeClock;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.SendLoop;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.LatencyMillis;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The instrument-limited verdict against a fake clock: the send loop runs on {@link FakeClock}, the
 * attacker's delay per request is what that loop measured, and the target's service time is given. Starving the
 * sender (each send costs more fake time than the interval) must fire the verdict; a slow target must not.
 */
class InstrumentHealthTest {
    private static final long MS = 1_000_000L, S = 1_000_000_000L;

    /** Runs {@code rate}/s for one fake second; each send costs {@code sendCostNanos}; service time is constant. */
    private static InstrumentHealth attack(int rate, long sendCostNanos, long serviceNanos) {
        return attack(rate, S, sendCostNanos, serviceNanos);
    }

    /** Runs {@code rate}/s for {@code durationNanos} of fake time; each send costs {@code sendCostNanos}. */
    private static InstrumentHealth attack(int rate, long durationNanos, long sendCostNanos, long serviceNanos) {
        FakeClock clock = new FakeClock();
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        long start = clock.now;
        SendLoop.Outcome o = new SendLoop(new Pacer.Constant(rate), durationNanos, MS, clock, clock, () -> false)
                .run(start, (index, intended, sent) -> {
                    delay.recordValue(sent - intended);
                    latency.recordValue(sent - intended + serviceNanos);
                    clock.now += sendCostNanos;
                });
        return InstrumentHealth.assess(o.sent() + o.unsent(), o.unsent(), LatencyMillis.of(latency), InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)),
                InstrumentHealth.Measured.none(2));
    }

    @Test
    void assess_starvedAttacker_isInstrumentLimited() {
        // 1,000/s for 2 s against a 1 ms target, but every send takes the attacker 1.5 ms: it falls further behind
        // each send (and still sends over 1,000, enough to judge its p99).
        InstrumentHealth h = attack(1000, 2 * S, 1_500_000L, MS);
        assertThat(h.delays().ownMillis().count()).isGreaterThanOrEqualTo(InstrumentHealth.MIN_JUDGED_REQUESTS);
        assertThat(h.instrumentLimited()).isTrue();
        assertThat(h.unsent()).isPositive();
        assertThat(h.reasons()).anyMatch(r -> r.contains("never sent")).anyMatch(r -> r.contains("over its allowance"));
        assertThat(h.verdictLine()).startsWith("INSTRUMENT-LIMITED");
    }

    @Test
    void assess_slowTarget_punctualAttacker_isNotInstrumentLimited() {
        // The same rate, a punctual attacker (sends cost nothing), a target taking 500 ms: the target set the numbers.
        InstrumentHealth h = attack(1000, 0, 500 * MS);
        assertThat(h.delays().ownMillis().max()).isZero();
        assertThat(h.instrumentLimited()).isFalse();
        assertThat(h.budgetMillis()).isCloseTo(25.0, org.assertj.core.data.Offset.offset(0.1));
        assertThat(h.verdictLine()).startsWith("Instrument OK");
    }

    @Test
    void assess_fewSlightlyLateSendsAtLowRate_scaleWithLatency() {
        // 10/s for 100 s (1,000 requests, enough to judge), every send 1 ms late (the old rule: 100 % of sends
        // late, "fell behind"). Beside a 500 ms latency that is noise; beside a 0.2 ms latency the attacker's
        // millisecond is most of what was measured.
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = 2 * MS;
        for (long serviceNanos : new long[]{500 * MS, 200_000L}) {
            Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
            Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
            SendLoop.Outcome o = new SendLoop(new Pacer.Constant(10), 100 * S, MS, clock, clock, () -> false)
                    .run(clock.now, (index, intended, sent) -> {
                        delay.recordValue(sent - intended);
                        latency.recordValue(sent - intended + serviceNanos);
                    });
            assertThat(o.lateSends()).as("the old rule counted these late").isGreaterThan(o.sent() / 2);
            InstrumentHealth h = InstrumentHealth.assess(o.sent() + o.unsent(), o.unsent(), LatencyMillis.of(latency),
                    InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)), InstrumentHealth.Measured.none(2));
            assertThat(h.instrumentLimited()).as("service %d ns", serviceNanos).isEqualTo(serviceNanos < MS);
        }
    }

    @Test
    void assess_eventLoopLagCountsAgainstTheAllowance() {
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        for (int i = 0; i < 1000; i++) {
            latency.recordValue(10 * MS);
            delay.recordValue(100_000L);
        }
        InstrumentHealth calm = InstrumentHealth.assess(1000, 0, LatencyMillis.of(latency), InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)),
                new InstrumentHealth.Measured(0.2, 0.5, 0.3, 0.2, 0.5, 2));
        InstrumentHealth lagging = InstrumentHealth.assess(1000, 0, LatencyMillis.of(latency), InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)),
                new InstrumentHealth.Measured(5.0, 20.0, 1.9, 1.0, 1.0, 2));
        assertThat(calm.instrumentLimited()).isFalse();
        assertThat(lagging.instrumentLimited()).isTrue();
        assertThat(lagging.verdictLine()).contains("event-loop lag 5ms").contains("busiest event loop 100%");
    }

    /** {@code n} requests of 0.2 ms, every send 50 µs late but {@code lateSends} of them 4.68 ms late. */
    private static InstrumentHealth fastTarget(int n, int lateSends, long unsent, long successes) {
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        for (int i = 0; i < n; i++) {
            long late = i < lateSends ? 4_680_000L : 50_000L;
            delay.recordValue(late);
            latency.recordValue(late + 200_000L);
        }
        return InstrumentHealth.assess(n + unsent, unsent, successes, LatencyMillis.of(latency),
                InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)), InstrumentHealth.Measured.none(2));
    }

    @Test
    void assess_tooFewRequests_isNotJudged_oneLateFirstSendIsNotTheAttackersTail() {
        // 20/s for 3 s against a fast target, the first send 4.68 ms late: at 60 requests the p99 is that one send.
        InstrumentHealth h = fastTarget(60, 1, 0, 60);
        assertThat(h.delays().ownMillis().p99()).isGreaterThan(h.budgetMillis());
        assertThat(h.instrumentLimited()).isFalse();
        assertThat(h.judged()).isFalse();
        assertThat(h.reasons()).isEmpty();
        assertThat(h.verdictLine()).startsWith("Instrument not judged: too few requests (60) to judge the instrument at p99");
        // the same single late send among enough requests is judged, and is not the tail
        InstrumentHealth enough = fastTarget(1000, 1, 0, 1000);
        assertThat(enough.judged()).isTrue();
        assertThat(enough.instrumentLimited()).as(enough.verdictLine()).isFalse();
        assertThat(enough.verdictLine()).startsWith("Instrument OK");
    }

    @Test
    void assess_enoughRequests_starvedAttacker_stillFires() {
        // 1,000 requests, 5 % of the sends 4.68 ms late beside a 0.2 ms target: the p99 rests on those, a pattern
        InstrumentHealth h = fastTarget(1000, 50, 0, 1000);
        assertThat(h.judged()).isTrue();
        assertThat(h.instrumentLimited()).isTrue();
        assertThat(h.verdictLine()).startsWith("INSTRUMENT-LIMITED").contains("over its allowance of 1ms");
        // the same 5 % in a run too small to judge at p99 is not judged; from 500 requests (a default attack) it is
        assertThat(fastTarget(499, 25, 0, 499).judged()).isFalse();
        assertThat(fastTarget(500, 25, 0, 500).instrumentLimited()).isTrue();
    }

    @Test
    void assess_tooFewRequests_butRequestsUnsent_stillFires() {
        // unsent requests are a count, not a percentile: a tiny run that left 5 of 65 unsent fell behind
        InstrumentHealth h = fastTarget(60, 1, 5, 60);
        assertThat(h.judged()).isTrue();
        assertThat(h.instrumentLimited()).isTrue();
        assertThat(h.reasons()).containsExactly("5 of 65 scheduled requests were never sent");
    }

    @Test
    void assess_targetFailed_isNotJudgedAtP99_butUnsentRequestsStillCount() {
        // every request refused and every send late: no service time to weigh the attacker's delay against
        for (int n : new int[]{5, 5000}) {
            InstrumentHealth h = fastTarget(n, n, 0, 0);
            assertThat(h.instrumentLimited()).as("%d requests", n).isFalse();
            assertThat(h.judged()).isFalse();
            assertThat(h.verdictLine()).startsWith("Instrument not judged: the target failed (0 of " + n + " requests succeeded)")
                    .doesNotContain("INSTRUMENT-LIMITED");
        }
        // requests the attacker never sent are its own, whatever the target did (out of ports, out of descriptors)
        InstrumentHealth unsent = fastTarget(5000, 5000, 100, 0);
        assertThat(unsent.instrumentLimited()).isTrue();
        assertThat(unsent.reasons()).containsExactly("100 of 5100 scheduled requests were never sent");
        // fewer than 1 % succeeding is a failed target too; 1 % is not
        assertThat(fastTarget(5000, 5000, 0, 49).judged()).isFalse();
        assertThat(fastTarget(5000, 5000, 0, 50).instrumentLimited()).isTrue();
        assertThat(InstrumentHealth.targetFailed(0, 0)).as("nothing sent: not the target's failure").isFalse();
    }
}
