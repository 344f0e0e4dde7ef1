package dev.blocklab.audit;

import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;
import dev.blocklab.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under an audit, a model's warm-up runs are a subject of their own: the model's row counts its measured runs
 * only, and a warm-up blocks by design where its model does. {@code forkjoin:4} blocks its workers on every call
 * (by design), so each run of 24 requests of one 10 ms call (time scale 1/100) gives about 24 blockings.
 */
class AuditWarmUpTest {
    private static final AuditSettings SETTINGS = new AuditSettings(5_000_000, 200_000_000, 20_000_000);

    @Test
    void warmUpBlockings_areCountedInARowOfTheirOwn() {
        Workload calls = Workloads.resolve("hundred-calls").withArrival(new Arrival.Batch(24));
        AuditResult audited;
        try (Auditor auditor = Auditor.start(SETTINGS)) {
            new InProcessDriver().run(calls, "forkjoin:4", new RunSettings(100, 1, 1, 0, 42, 256), Progress.NONE);
            audited = auditor.finish();
        }
        List<Finding> measured = audited.of("forkjoin:4"), warmUp = audited.of("forkjoin:4 (warm-up)");
        assertThat(warmUp).as("the warm-up's blockings, apart").isNotEmpty()
                .allSatisfy(f -> assertThat(f.byDesign()).as("by design, as the model's").contains("blocking by design"));
        assertThat(count(warmUp)).isBetween(20L, 36L);
        assertThat(count(measured)).as("one measured run of 24 calls, not two runs' worth").isBetween(20L, 36L);
    }

    @Test
    void warmedUp_namesTheSubjectAWarmUpBelongsTo() {
        assertThat(RunWindow.warmedUp(RunWindow.warmUp("scala-global"))).isEqualTo("scala-global");
        assertThat(RunWindow.warmedUp("scala-global")).isEqualTo("scala-global");
        assertThat(ByDesign.reason(RunWindow.warmUp("scala-global"), Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER, List.of())).isPresent();
        assertThat(ByDesign.reason(RunWindow.warmUp("scala-global-blocking"), Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER, List.of())).isEmpty();
    }

    private static long count(List<Finding> findings) {
        return findings.stream().mapToLong(Finding::count).sum();
    }
}
