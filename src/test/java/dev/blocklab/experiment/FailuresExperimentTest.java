package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailuresExperimentTest {

    @Test
    void run_atScale20_everyModelFailsEveryRequestAndCancelsWhileTheWrongVariantLeaks() {
        List<Object> streamed = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 20, Progress.NONE, streamed::add, Environment.current());
        ExperimentResult result = new FailuresExperiment().run(settings);

        List<FailuresRow> rows = result.rows().stream().map(FailuresRow.class::cast).toList();
        assertThat(streamed).hasSameSizeAs(rows);
        assertThat(rows).extracting(FailuresRow::model).contains("sequential", "cf-nonblocking:8", "virtual", FailuresExperiment.WRONG);
        for (FailuresRow row : rows) {
            assertThat(row.failed()).as(row.model() + " failed requests").isEqualTo(row.requests()).isPositive();
            assertThat(row.run().counts().failureCauses()).as(row.model()).containsOnlyKeys("java.io.IOException: audit service unavailable");
        }
        for (FailuresRow row : rows) {
            if (row.model().equals(FailuresExperiment.WRONG)) {
                assertThat(row.verdict()).startsWith("leaks");
                assertThat(row.orphanedCalls()).isPositive();
                assertThat(row.orphanMillisPerFailed()).isPositive();
            } else {
                assertThat(row.verdict()).as(row.model() + ": " + row).isIn("cancels", "nothing left to cancel");
                if (row.cancellationsRequested() > 0) assertThat(row.verdict()).isEqualTo("cancels");
                assertThat(row.leftoverThreads()).as(row.model()).isZero();
            }
        }
        // cf-nonblocking overlaps the calls: it learns of the failure at audit's 20 ms, not after the 2 s hang
        FailuresRow cf = rows.stream().filter(r -> r.model().equals("cf-nonblocking:8")).findFirst().orElseThrow();
        assertThat(cf.calls()).isEqualTo("overlapped");
        FailuresRow sequential = rows.stream().filter(r -> r.model().equals("sequential")).findFirst().orElseThrow();
        assertThat(sequential.calls()).isEqualTo("in step order");
        assertThat(cf.meanLatencyMillis()).isLessThan(sequential.meanLatencyMillis());
        assertThat(result.tables().getFirst().columns()).contains("predicted fail ms", "orphan ms/failed", "verdict");
    }
}
