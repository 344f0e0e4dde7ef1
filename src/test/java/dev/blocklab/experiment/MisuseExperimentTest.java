package dev.blocklab.experiment;

import dev.blocklab.audit.Finding;
import dev.blocklab.audit.Frame;
import dev.blocklab.audit.Rule;
import dev.blocklab.audit.ThreadKind;
import dev.blocklab.misuse.MisuseCase;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The showcase's verdicts as a pure function of what the auditor found. */
class MisuseExperimentTest {
    static final Frame LINE = new Frame("dev.blocklab.misuse.EventLoopSleep", "lambda$run$0", 33);

    static Finding finding(Rule rule, Frame culprit) {
        return new Finding("case", rule, ThreadKind.EVENT_LOOP, List.of("jdk.ThreadSleep"), 4, 200_000_000, 50_000_000,
                culprit, List.of(culprit), null);
    }

    @Test
    void blockNanos_outlastsTheThresholdOfTheAuditItRunsUnder() {
        assertThat(MisuseExperiment.blockNanos(dev.blocklab.audit.AuditSettings.defaults())).isEqualTo(MisuseExperiment.BLOCK_NANOS);
        var coarse = new dev.blocklab.audit.AuditSettings(100_000_000L, dev.blocklab.audit.AuditSettings.DEFAULT_STALL_NANOS,
                dev.blocklab.audit.AuditSettings.DEFAULT_SAMPLE_PERIOD_NANOS);
        assertThat(MisuseExperiment.blockNanos(coarse)).isEqualTo(500_000_000L);   // 50 ms would not be flagged at 100 ms
    }

    @Test
    void row_wrongCaseNeedsItsRuleAtItsLine() {
        var expected = Optional.of(new MisuseCase.Expected(Rule.BLOCKING_ON_EVENT_LOOP, LINE.className(), 33));
        assertThat(MisuseExperiment.row("w", "d", expected, List.of(finding(Rule.BLOCKING_ON_EVENT_LOOP, LINE))).verdict())
                .isEqualTo(MisuseRow.FLAGGED);
        assertThat(MisuseExperiment.row("w", "d", expected, List.of(finding(Rule.BLOCKING_ON_EVENT_LOOP, new Frame(LINE.className(), "x", 34)))).verdict())
                .as("another line").isEqualTo(MisuseRow.MISSED);
        assertThat(MisuseExperiment.row("w", "d", expected, List.of(finding(Rule.STALLED_EVENT_LOOP, LINE))).verdict())
                .as("another rule").isEqualTo(MisuseRow.MISSED);
        MisuseRow none = MisuseExperiment.row("w", "d", expected, List.of());
        assertThat(none.verdict()).isEqualTo(MisuseRow.MISSED);
        assertThat(none.expectedLine()).isEqualTo("EventLoopSleep.java:33");
    }

    @Test
    void row_correctCaseMustBeClean() {
        assertThat(MisuseExperiment.row("c", "d", Optional.empty(), List.of()).verdict()).isEqualTo(MisuseRow.CLEAN);
        MisuseRow fp = MisuseExperiment.row("c", "d", Optional.empty(), List.of(finding(Rule.BLOCKING_ON_EVENT_LOOP, LINE)));
        assertThat(fp.verdict()).isEqualTo(MisuseRow.FALSE_POSITIVE);
        assertThat(fp.found()).containsExactly("blocking-on-event-loop at " + LINE);
    }
}
