package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FailuresExperimentTest {

    @Test
    void run_atScale20_everyModelAndVariantFailsEveryRequestAndCancelsWhileTheWrongVariantLeaks() {
        List<Object> streamed = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 20, Progress.NONE, streamed::add, Environment.current());
        ExperimentResult result = new FailuresExperiment().run(settings);

        List<FailuresRow> rows = result.rows().stream().map(FailuresRow.class::cast).toList();
        assertThat(streamed).hasSameSizeAs(rows);
        assertThat(rows).extracting(FailuresRow::model).contains("sequential", "cf-nonblocking:8", "virtual", FailuresExperiment.WRONG,
                "frameworks-sequential", "invokeall:8", "reactor", "jaxrs-sequential");
        for (FailuresRow row : rows) {
            assertThat(row.failed()).as(row.model() + " failed requests").isEqualTo(row.requests()).isPositive();
            boolean variant = dev.blocklab.registry.Registry.parse(row.model().equals(FailuresExperiment.WRONG) ? "fixed:8" : row.model())
                    .entry().kind() == dev.blocklab.model.ModelEntry.Kind.VARIANT;
            assertThat(row.run().counts().failureCauses()).as(row.model()).containsOnlyKeys(variant
                    ? "java.io.IOException: comments service unavailable" : "java.io.IOException: audit service unavailable");
        }
        // a variant that makes the calls one after another meets the failure after posts' 2 s
        FailuresRow stages = rows.stream().filter(r -> r.model().equals("frameworks-sequential")).findFirst().orElseThrow();
        assertThat(stages.calls()).isEqualTo("in step order");
        assertThat(stages.predictedFailMillis()).isEqualTo(2_020 / 20.0);
        assertThat(rows.stream().filter(r -> r.model().equals("reactor")).findFirst().orElseThrow().predictedFailMillis()).isEqualTo(20 / 20.0);
        for (FailuresRow row : rows) {
            boolean variant = !row.model().equals(FailuresExperiment.WRONG)
                    && dev.blocklab.registry.Registry.parse(row.model()).entry().kind() == dev.blocklab.model.ModelEntry.Kind.VARIANT;
            if (row.model().equals(FailuresExperiment.WRONG)) {
                assertThat(row.verdict()).startsWith("leaks");
                assertThat(row.orphanedCalls()).isPositive();
                assertThat(row.orphanMillisPerFailed()).isPositive();
            } else if (!variant) {
                assertThat(row.verdict()).as(row.model() + ": " + row).isIn("cancels", "nothing left to cancel");
                if (row.cancellationsRequested() > 0) assertThat(row.verdict()).isEqualTo("cancels");
                assertThat(row.leftoverThreads()).as(row.model()).isZero();
            } else if (row.verdict().startsWith("leaks")) {   // the variants are measured, not all of them cancel
                assertThat(row.orphanedCalls() + row.callsLeftRunning()).as(row.model()).isPositive();
            }
        }
        // structured concurrency cancels; invokeAll waits for every call by its contract
        assertThat(rows.stream().filter(r -> r.model().equals("frameworks-structured")).findFirst().orElseThrow().verdict()).isEqualTo("cancels");
        assertThat(rows.stream().filter(r -> r.model().equals("invokeall:8")).findFirst().orElseThrow().verdict()).startsWith("waits");
        // cf-nonblocking overlaps the calls: it learns of the failure at audit's 20 ms, not after the 2 s hang
        FailuresRow cf = rows.stream().filter(r -> r.model().equals("cf-nonblocking:8")).findFirst().orElseThrow();
        assertThat(cf.calls()).isEqualTo("overlapped");
        // cf-blocking makes a supplyAsync per call: overlapped too, whatever the load does to its batch prediction
        assertThat(rows.stream().filter(r -> r.model().equals("cf-blocking:8")).findFirst().orElseThrow().calls()).isEqualTo("overlapped");
        FailuresRow sequential = rows.stream().filter(r -> r.model().equals("sequential")).findFirst().orElseThrow();
        assertThat(sequential.calls()).isEqualTo("in step order");
        assertThat(cf.meanLatencyMillis()).isLessThan(sequential.meanLatencyMillis());
        assertThat(result.tables().getFirst().columns()).contains("predicted fail ms", "orphan ms/failed", "verdict");
    }

    @Test
    void predictions_underTheOpenLoad_countTheQueueEachModelHas() {
        dev.blocklab.driver.RunSettings run = new dev.blocklab.driver.RunSettings(10, 0, 1, 0, dev.blocklab.Defaults.SEED, 256);
        // cf-blocking:8: audit's failure at 2 ms interrupts the other calls, so each request holds 3 threads 2 ms
        // (1,333 requests a second on 8), no queue at 100/s: 2 ms (was 240 ms, the calls' 232 ms in step order / 3 each)
        assertThat(predictedMillis(FailuresExperiment.workload(false), "cf-blocking:8", run)).isEqualTo(2.0);
        Workload variants = FailuresExperiment.variantWorkload(false);
        // disruptor-stages: 2 workers a stage for 202 ms of calls, 9.9 requests a second against 100/s, and a request
        // leaves with the backlog its batch took (was 202 ms, one request alone)
        assertThat(predictedMillis(variants, "disruptor-stages", run)).isEqualTo(1_752.7);
        // cf-suspended:8: invokeAll's queue for the pool (552 ms), then its merges queue behind the calls (was 552 ms)
        assertThat(predictedMillis(variants, "cf-suspended:8", run)).isEqualTo(836.0);
        assertThat(predictedMillis(variants, "invokeall:8", run)).isEqualTo(552.0);
    }

    private static double predictedMillis(Workload w, String model, dev.blocklab.driver.RunSettings run) {
        return dev.blocklab.driver.InProcessDriver.predict(w, dev.blocklab.registry.Registry.parse(model), run).millis();
    }
}
