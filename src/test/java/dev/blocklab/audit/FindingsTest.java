package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FindingsTest {
    static final Frame SLEEP = new Frame("java.lang.Thread", "sleep", 601);
    static final Frame LINE_A = new Frame("com.example.A", "handle", 10);
    static final Frame LINE_B = new Frame("com.example.B", "handle", 20);

    static Findings.Attributed at(String subject, String thread, long ms, Frame... stack) {
        return new Findings.Attributed(subject, new Blocking("jdk.ThreadSleep", thread, false, "main", Instant.EPOCH, ms * 1_000_000, List.of(stack)));
    }

    @Test
    void of_groupsBySubjectRuleAndLine_countsTotalsAndWorst() {
        List<Finding> found = Findings.of(List.of(
                at("vertx", "vert.x-eventloop-thread-0", 30, SLEEP, LINE_A),
                at("vertx", "vert.x-eventloop-thread-1", 50, SLEEP, LINE_A),
                at("vertx", "vert.x-eventloop-thread-0", 20, SLEEP, LINE_B),
                at("vertx", "pool-1-thread-1", 500, SLEEP, LINE_A),
                at("forkjoin:4", "ForkJoinPool-1-worker-1", 100, SLEEP, LINE_A)));
        assertThat(found).hasSize(3);
        Finding a = found.stream().filter(f -> f.subject().equals("vertx") && f.culprit().equals(LINE_A)).findFirst().orElseThrow();
        assertThat(a.rule()).isEqualTo(Rule.BLOCKING_ON_EVENT_LOOP);
        assertThat(a.count()).as("the pool thread's sleep is allowed").isEqualTo(2);
        assertThat(a.totalBlockedNanos()).isEqualTo(80_000_000);
        assertThat(a.worstBlockedNanos()).isEqualTo(50_000_000);
        assertThat(a.topFrames()).containsExactly(LINE_A);
        assertThat(a.misuse()).isTrue();
        Finding fj = found.getFirst();
        assertThat(fj.subject()).as("sorted by subject").isEqualTo("forkjoin:4");
        assertThat(fj.misuse()).isFalse();
        assertThat(fj.byDesign()).contains("blocking by design");
        assertThat(Findings.misuse(found)).isEqualTo(2);
    }

    @Test
    void windows_attributeByStartTime_innermostWins_elseBetweenRuns() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        List<RunWindow> windows = List.of(
                new RunWindow("frameworks", t0, t0.plusSeconds(10)),
                new RunWindow("reactor", t0.plusSeconds(2), t0.plusSeconds(4)),
                new RunWindow("open", t0.plusSeconds(20), null));
        assertThat(RunWindow.subjectAt(windows, t0.plusSeconds(1))).isEqualTo("frameworks");
        assertThat(RunWindow.subjectAt(windows, t0.plusSeconds(3))).isEqualTo("reactor");
        assertThat(RunWindow.subjectAt(windows, t0.plusSeconds(4))).as("end is exclusive").isEqualTo("frameworks");
        assertThat(RunWindow.subjectAt(windows, t0.plusSeconds(15))).isEqualTo(RunWindow.OUTSIDE);
        assertThat(RunWindow.subjectAt(windows, t0.plusSeconds(99))).isEqualTo("open");
    }

    @Test
    void byDesign_onlyForTheRuleThatSubjectBreaksOnPurpose() {
        List<Frame> app = List.of(LINE_A);
        assertThat(ByDesign.reason("forkjoin:16", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER, app)).isPresent();
        assertThat(ByDesign.reason("forkjoin-managed:16", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER, app)).isEmpty();
        assertThat(ByDesign.reason("forkjoin:16", Rule.BLOCKING_ON_COMMON_POOL, app)).isEmpty();
        assertThat(ByDesign.reason("serve event-loop", Rule.BLOCKING_ON_EVENT_LOOP, app)).isPresent();
        assertThat(ByDesign.reason("vertx-event-loop", Rule.BLOCKING_ON_EVENT_LOOP, app)).isEmpty();
        List<Frame> talk = List.of(new Frame("dev.blocklab.server.ProfilePage", "blocking", 107),
                new Frame("dev.blocklab.server.ProfilePage", "lambda$asyncBlocking$1", 59));
        assertThat(ByDesign.reason("virtual", Rule.BLOCKING_ON_COMMON_POOL, talk)).as("the talk's endpoint, any profile").isPresent();
        assertThat(ByDesign.reason("virtual", Rule.BLOCKING_ON_COMMON_POOL, app)).isEmpty();
    }

    @Test
    void condition_parsesAndHolds() {
        AuditResult r = new AuditResult(AuditSettings.defaults(), Findings.of(List.of(
                at("x", "parallel-1", 30, SLEEP, LINE_A), at("forkjoin:2", "ForkJoinPool-1-worker-1", 30, SLEEP, LINE_A))),
                List.of("x", "forkjoin:2", "clean"), 2, 0, AuditResult.Delivery.COMPLETE);
        assertThat(AuditCondition.parse("misuse>0").violation(r)).contains("fail-if misuse>0: misuse was 1");
        assertThat(AuditCondition.parse("findings >= 3").violation(r)).isEmpty();
        assertThat(AuditCondition.parse("findings>1").violation(r)).isPresent();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AuditCondition.parse("p99>1s"))
                .hasMessageContaining("--fail-if").hasMessageContaining("misuse>0");
        assertThat(r.table().rows()).extracting(row -> row.get(0) + " " + row.get(7))
                .containsExactly("forkjoin:2 by design", "x MISUSE", "clean clean");
    }
}
