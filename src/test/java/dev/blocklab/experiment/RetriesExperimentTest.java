package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.workload.Step;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RetriesExperimentTest {

    @Test
    void predictedCallsPerRequest_fromTheDraws_retryAddsTheFailuresHedgeTheSlowTenth() {
        assertThat(RetriesExperiment.predictedCallsPerRequest(Step.Attempts.ONCE, 42, 10_000)).isEqualTo(1.0);
        // about 2 % fail and 0.6 % time out (p99 2 s, timeout 2.5 s); a retry of those fails again rarely
        assertThat(RetriesExperiment.predictedCallsPerRequest(RetriesExperiment.RETRY, 42, 10_000)).isCloseTo(1.027, within(0.01));
        // the hedge's 700 ms is about the latency's p90
        assertThat(RetriesExperiment.predictedCallsPerRequest(RetriesExperiment.HEDGE, 42, 10_000)).isCloseTo(1.10, within(0.015));
        assertThat(RetriesExperiment.capacityPerSecond(42, 10_000)).isBetween(22.0, 28.0);
    }

    @Test
    void run_atScale20_retriesRecoverAtLightLoad_hedgesAsPredicted_bothAmplifyUnderOverload() {
        List<Object> streamed = new ArrayList<>();
        ExperimentResult result = new RetriesExperiment().run(
                new ExperimentSettings(false, 20, Progress.NONE, streamed::add, Environment.current()));
        List<RetriesRow> rows = result.rows().stream().map(RetriesRow.class::cast).toList();
        assertThat(streamed).hasSameSizeAs(rows);
        assertThat(rows).hasSize(6);
        RetriesRow once = rows.get(0), retry = rows.get(1), hedge = rows.get(2);
        RetriesRow onceOver = rows.get(3), retryOver = rows.get(4), hedgeOver = rows.get(5);
        assertThat(once.loadOfCapacity()).isLessThan(1);
        assertThat(onceOver.loadOfCapacity()).isGreaterThan(1);
        for (RetriesRow row : rows) {
            assertThat(row.requests()).as(row.option()).isPositive();
            assertThat(row.servedPerRequest()).as(row.option()).isLessThanOrEqualTo(row.callsPerRequest());
        }
        assertThat(once.callsPerRequest()).isEqualTo(1.0);
        // retries recover failed first attempts: a request ends on a failed lookup (2 % of first attempts) far less
        // often when a retry follows (both must fail). Not the success ratios, which also count timeouts, the
        // machine's as much as the backend's: a loaded machine gave once 96 %, retry 86 %
        assertThat(lookupFailedRatio(retry)).as("retries recover failed first attempts: %s beside %s",
                retry.run().counts().failureCauses(), once.run().counts().failureCauses()).isLessThan(lookupFailedRatio(once));
        // a hedge goes out for the slow tenth at light load (its latency gain is measured in docs, not asserted: one
        // stall of a busy machine moves a p99 of 400 requests)
        assertThat(hedge.callsPerRequest()).as("hedges at light load").isCloseTo(hedge.predictedCallsPerRequest(), within(0.1));
        assertThat(retryOver.callsPerRequest()).as("retries amplify the load under overload")
                .isGreaterThan(retry.callsPerRequest()).isGreaterThan(retryOver.predictedCallsPerRequest());
        assertThat(hedgeOver.callsPerRequest()).as("nearly every request hedges under overload").isGreaterThan(1.5);
        assertThat(result.tables().getFirst().columns()).contains("calls/request", "predicted calls/request", "latency p99 ms");
    }

    /** The requests of the row that ended on a failed lookup, over its requests. */
    private static double lookupFailedRatio(RetriesRow row) {
        return (double) row.run().counts().failureCauses().getOrDefault("java.io.IOException: lookup failed", 0L) / row.requests();
    }
}
