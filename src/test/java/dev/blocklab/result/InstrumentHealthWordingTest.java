package dev.blocklab.result;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The verdict line's words: who was the limit, and durations a reader can take in. */
class InstrumentHealthWordingTest {
    /** 1,000 requests, p99 1 s, so the allowance is 50 ms; the attacker's own delay p99 is {@code ownP99Millis}. */
    private static InstrumentHealth health(double ownP99Millis, double attackerCores, double machineBusy) {
        LatencyMillis latency = new LatencyMillis(1000, 500, 800, 800, 900, 950, 1000, 1000, 1000, 1000);
        LatencyMillis own = new LatencyMillis(1000, 0, 10, 10, 20, 30, ownP99Millis, ownP99Millis, ownP99Millis, ownP99Millis);
        return InstrumentHealth.assess(1000, 0, latency, InstrumentHealth.OwnDelays.sendLatenessOnly(own),
                new InstrumentHealth.Measured(50.462719, 60, attackerCores, 0.01, machineBusy, 2));
    }

    @Test
    void verdictLine_machineSaturatedByOthers_whileTheAttackerUsedLittleCpu_saysSo() {
        // measure-16-17.md: 'the load generator was the limit' with the attacker at 0.04 of 2 cores and the machine 100 % busy
        assertThat(health(18.120703, 0.04, 1.0).verdictLine()).startsWith(
                "INSTRUMENT-LIMITED: the machine was saturated by other work, so the attacker, not the target, set the latency and rate figures (the status codes are the target's): "
                        + "the attacker added up to 68.6ms at p99 (its own delay before sending 18.1ms plus event-loop lag 50.5ms, each its p99), over its allowance of 50ms");
    }

    @Test
    void verdictLine_noRequestMeasured_saysSo_withoutAnAddedDelay() {
        // an attack stopped in its warm-up: no request measured, yet the line gave "the attacker added 3.99ms at p99"
        LatencyMillis none = new LatencyMillis(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        InstrumentHealth h = InstrumentHealth.assess(0, 0, none, InstrumentHealth.OwnDelays.sendLatenessOnly(none),
                new InstrumentHealth.Measured(3.99, 3.99, 1.41, 0.05, 1.0, 2));
        assertThat(h.judged()).isFalse();
        assertThat(h.verdictLine()).isEqualTo("Instrument not judged: no request was measured (attacker CPU 1.41 of 2 cores, busiest event loop 5%, machine 100% busy).");
    }

    @Test
    void verdictLine_busyAttacker_isTheAttackersLimit() {
        assertThat(health(18.120703, 1.6, 1.0).verdictLine()).startsWith("INSTRUMENT-LIMITED: the attacker, not the target, set the latency and rate figures (the status codes are the target's): ");
        assertThat(health(18.120703, 0.04, 0.5).verdictLine()).startsWith("INSTRUMENT-LIMITED: the attacker, not the target, set the latency and rate figures (the status codes are the target's): ");
    }

    private static InstrumentHealth withLagCauses(double waiting, double running) {
        LatencyMillis latency = new LatencyMillis(1000, 500, 800, 800, 900, 950, 1000, 1000, 1000, 1000);
        LatencyMillis own = new LatencyMillis(1000, 0, 1, 1, 2, 3, 5, 5, 5, 5);
        return InstrumentHealth.assess(1000, 0, latency, InstrumentHealth.OwnDelays.sendLatenessOnly(own),
                new InstrumentHealth.Measured(68, 180, 0.8, 0.3, 0.7, waiting, running, 2));
    }

    @Test
    void verdictLine_loopsLateMostlyWaitingForACore_saysSoFirst_andGivesTheSplit() {
        // a target's collection holding both cores of a shared machine: the attacker's loops runnable, not running
        String line = withLagCauses(0.85, 0.05).verdictLine();
        assertThat(line).startsWith("INSTRUMENT-LIMITED: " + InstrumentHealth.WAITED_FOR_CORES);
        assertThat(line).contains("of the event loops' lateness, 85% waiting for a core, 5% running the attacker's own work, 10% stopped");
    }

    @Test
    void verdictLine_loopsLateRunningTheirOwnWork_doesNotBlameOtherThreads() {
        String line = withLagCauses(0.1, 0.8).verdictLine();
        assertThat(line).startsWith("INSTRUMENT-LIMITED: the attacker, not the target, set the latency and rate figures (the status codes are the target's): ")
                .doesNotContain(InstrumentHealth.WAITED_FOR_CORES)
                .contains("10% waiting for a core, 80% running the attacker's own work, 10% stopped");
    }

    @Test
    void verdictLine_lagTheSmallerPart_doesNotLeadWithTheCores() {
        // the attacker's own delay before sending (70 ms) outweighs its loops' lag (68 ms): waiting for a core
        // did not make this verdict
        LatencyMillis latency = new LatencyMillis(1000, 500, 800, 800, 900, 950, 1000, 1000, 1000, 1000);
        LatencyMillis own = new LatencyMillis(1000, 0, 1, 1, 2, 3, 70, 70, 70, 70);
        String line = InstrumentHealth.assess(1000, 0, latency, InstrumentHealth.OwnDelays.sendLatenessOnly(own),
                new InstrumentHealth.Measured(68, 180, 0.8, 0.3, 0.7, 0.9, 0.05, 2)).verdictLine();
        assertThat(line).startsWith("INSTRUMENT-LIMITED: the attacker, not the target, set the latency and rate figures (the status codes are the target's): ")
                .contains("90% waiting for a core");
    }

    @Test
    void verdictLine_causesUnknown_hasNoSplit() {
        assertThat(withLagCauses(Double.NaN, Double.NaN).verdictLine()).doesNotContain("waiting for a core");
    }
}
