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
        FakeClock clock = new FakeClock();
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        long start = clock.now;
        SendLoop.Outcome o = new SendLoop(new Pacer.Constant(rate), S, MS, clock, clock, () -> false)
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
        // 1,000/s against a 1 ms target, but every send takes the attacker 1.5 ms: it falls further behind each send.
        InstrumentHealth h = attack(1000, 1_500_000L, MS);
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
        // 10/s, every send 1 ms late (the old rule: 100 % of sends late, "fell behind"). Beside a 500 ms latency
        // that is noise; beside a 0.2 ms latency the attacker's millisecond is most of what was measured.
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = 2 * MS;
        for (long serviceNanos : new long[]{500 * MS, 200_000L}) {
            Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
            Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
            SendLoop.Outcome o = new SendLoop(new Pacer.Constant(10), S, MS, clock, clock, () -> false)
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
}
