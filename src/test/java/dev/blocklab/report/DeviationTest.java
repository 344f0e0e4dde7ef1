package dev.blocklab.report;

import dev.blocklab.result.ArrivalKind;
import dev.blocklab.result.ContextSwitches;
import dev.blocklab.result.Counts;
import dev.blocklab.result.Repeats;
import dev.blocklab.result.Resources;
import dev.blocklab.result.RunPrediction;
import dev.blocklab.result.Timing;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.RunResult;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

public class DeviationTest {
    /** A run of {@code requests} requests with mean latency {@code meanMillis}. */
    public static RunResult run(String model, long requests, long successes, double wallMillis, double predictedMillis,
                         double meanMillis, long threadsStarted, int peakThreads, double cpuMillis, long timeScale) {
        LatencyMillis latency = new LatencyMillis(requests, meanMillis, meanMillis, meanMillis, meanMillis, meanMillis, meanMillis,
                meanMillis, meanMillis, meanMillis);
        return new RunResult(model, "w", "batch", ArrivalKind.BATCH, timeScale, null,
                new Counts(requests, successes, requests - successes, 0, 0, Map.of()),
                new Timing(wallMillis, requests / (wallMillis / 1000), latency, ""), Repeats.once(wallMillis),
                new RunPrediction(1, predictedMillis, "basis"),
                new Resources(peakThreads, peakThreads, threadsStarted, 0, cpuMillis, new ContextSwitches(1, 1), 1, 1), null);
    }

    @Test void of_within20Percent_ok() {
        Deviation d = Deviation.of(run("fixed:8", 100, 100, 115, 100, 10, 8, 10, 1, 1), 2);
        assertThat(d.flagged()).isFalse();
        assertThat(d.flag()).isEqualTo("ok");
    }

    @Test void of_failedRequests_namedFirst() {
        assertThat(Deviation.of(run("virtual", 10, 4, 300, 100, 10, 0, 10, 1, 1), 2).cause()).isEqualTo("requests failed");
    }

    @Test void of_cpuSaturated_cpuBound() {
        Deviation d = Deviation.of(run("fixed:8", 100, 100, 1000, 500, 10, 8, 10, 1800, 1), 2);
        assertThat(d.cause()).isEqualTo("CPU-bound: fewer cores than threads");
        assertThat(d.detail()).contains("on 2 cores").contains("90 % busy");
    }

    @Test void of_manyThreadsStarted_threadCreation() {
        Deviation d = Deviation.of(run("cached", 10_000, 10_000, 700, 100, 50, 10_000, 4000, 100, 10), 2);
        assertThat(d.cause()).isEqualTo("thread creation cost");
        assertThat(d.detail()).contains("10000 platform threads started").contains("60 us per thread");
    }

    @Test void of_poolFullByLittlesLaw_poolSaturated() {
        // 100 requests in 1 s with 500 ms mean latency: 50 in flight against 8 threads
        Deviation d = Deviation.of(run("fixed:8", 100, 100, 1000, 500, 500, 8, 10, 10, 1), 2);
        assertThat(d.cause()).isEqualTo("pool saturated");
        assertThat(d.detail()).contains("= 50.00 requests in flight against a pool of 8 threads");
    }

    @Test void of_scaledDelays_timeScaleOverhead() {
        Deviation d = Deviation.of(run("virtual", 100, 100, 26, 10, 20, 0, 10, 10, 100), 2);
        assertThat(d.cause()).isEqualTo("time-scale overhead");
        assertThat(d.detail()).contains("do not shrink with the scale (delays / 100)");
    }

    @Test void of_muchFaster_faster() {
        assertThat(Deviation.of(run("virtual", 100, 100, 50, 100, 20, 0, 10, 10, 1), 2).cause()).isEqualTo("faster than the formula");
    }

    @Test void littlesLaw_rateTimesTimeHeld() {
        // 200 req/s x 0.25 s = 50
        assertThat(Deviation.littlesLaw(run("fixed:8", 200, 200, 1000, 1000, 250, 8, 10, 10, 1))).isEqualTo(50.0);
    }

    @Test void deviation_flagged_namesRatioBasisAndCause() {
        assertThat(RunTables.deviation(run("virtual", 100, 100, 26, 10, 20, 0, 10, 10, 100)))
                .startsWith("2.60 x the prediction (basis), likely time-scale overhead: ");
    }
}
