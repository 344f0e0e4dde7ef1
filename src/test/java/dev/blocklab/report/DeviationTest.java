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
        assertThat(d.flag()).isEqualTo("1.15 x");   // the ratio, with no cause
    }

    @Test void of_everyRequestCutAtItsDeadline_namesTheDeadlineNotOverlap() {
        // 15 requests, all timed out at 30 ms of a 100 ms request: 0.31 x the prediction because of the deadline
        RunResult r = run("fixed:4", 15, 0, 31, 100, 30, 4, 10, 1, 1);
        r = new RunResult(r.model(), r.workload(), r.arrival(), r.arrivalKind(), r.timeScaleDivisor(), r.answer(),
                new Counts(15, 0, 0, 15, 0, Map.of()), r.timing(), r.repeats(), r.prediction(), r.resources(), null);
        Deviation d = Deviation.of(r, 2);
        assertThat(d.cause()).isEqualTo("requests cut at their deadline");
        assertThat(d.detail()).startsWith("15 of 15 requests timed out");
    }

    @Test void of_zeroPrediction_noRatioAndNoFlag() {
        // a graph of combine and CPU steps only predicts 0 ms: a ratio over it would be a huge meaningless number
        Deviation d = Deviation.of(run("virtual", 1, 1, 0.08, 0, 0.08, 0, 10, 1, 1), 2);
        assertThat(d.ratio()).isNaN();
        assertThat(d.flagged()).isFalse();
        assertThat(d.flag()).isEqualTo("- (prediction 0 ms)");
        assertThat(RunTables.num(d.ratio())).isEqualTo("-");
    }

    @Test void of_onePercentFailedBesideASlowdown_failuresNotBlamed() {
        // 1 % of requests failed (they end early), the run was 1.33 x slower: the failures cannot explain it
        Deviation d = Deviation.of(run("virtual", 1000, 990, 133, 100, 10, 0, 10, 1, 1), 2);
        assertThat(d.cause()).doesNotContain("fail").isEqualTo("overhead outside the formula");
    }

    @Test void of_manyFailedAndFaster_failuresNamedWithTheirShare() {
        Deviation d = Deviation.of(run("virtual", 10, 4, 50, 100, 10, 0, 10, 1, 1), 2);
        assertThat(d.cause()).isEqualTo("requests failed early");
        assertThat(d.detail()).contains("6 of 10 requests (60.0 %) failed", "50 % less time");
    }

    @Test void of_manyFailedAndFaster_butThePredictionCountedThem_failuresNotNamed() {
        // a model that fails fast, predicted with each request ending at its first failure: the failures are in the
        // prediction already, so they do not explain a run faster than it
        RunResult r = run("virtual", 10, 4, 50, 100, 10, 0, 10, 1, 1);
        RunResult counted = new RunResult(r.model(), r.workload(), r.arrival(), ArrivalKind.BATCH, 1, null, r.counts(),
                r.timing(), r.repeats(), new RunPrediction(1, 100, "basis", true), r.resources(), null);
        assertThat(Deviation.of(counted, 2).cause()).isEqualTo("faster than the formula");
    }

    @Test void of_timeoutsAndSlower_timeoutsNamed() {
        RunResult r = run("virtual", 10, 8, 300, 100, 10, 0, 10, 1, 1);
        RunResult timedOut = new RunResult(r.model(), r.workload(), r.arrival(), ArrivalKind.BATCH, 1, null,
                new Counts(10, 8, 0, 2, 0, Map.of()), new Timing(300, 33, r.timing().latencyMillis(), ""), Repeats.once(300),
                new RunPrediction(1, 100, "basis"), new Resources(10, 10, 0, 0, 1, new ContextSwitches(1, 1), 1, 1), null);
        Deviation d = Deviation.of(timedOut, 2);
        assertThat(d.cause()).isEqualTo("requests timed out");
        assertThat(d.detail()).contains("2 of 10 requests (20 %) timed out");
        // one timeout in a hundred is not why a run is 3 x slower: the next cause is named
        RunResult few = new RunResult(r.model(), r.workload(), r.arrival(), ArrivalKind.BATCH, 1, null,
                new Counts(100, 99, 0, 1, 0, Map.of()), new Timing(300, 333, r.timing().latencyMillis(), ""), Repeats.once(300),
                new RunPrediction(1, 100, "basis"), new Resources(10, 10, 0, 0, 1, new ContextSwitches(1, 1), 1, 1), null);
        assertThat(Deviation.of(few, 2).cause()).isEqualTo("overhead outside the formula");
    }

    @Test void of_aMillionVirtualThreadsBusyingTheCores_cpuBoundPerRequestNotThreadCount() {
        // a million sleeping virtual threads on 11 platform threads, 2 cores 95 % busy creating and scheduling them
        Deviation d = Deviation.of(run("virtual", 1_000_000, 1_000_000, 2000, 1000, 10, 0, 11, 3800, 1), 2);
        assertThat(d.cause()).isEqualTo("CPU-bound");
        assertThat(d.detail()).contains("95 % busy", "3.80 us of CPU per request").doesNotContain("threads share");
    }

    @Test void of_cpuSaturated_cpuBound() {
        Deviation d = Deviation.of(run("fixed:8", 100, 100, 1000, 500, 10, 8, 10, 1800, 1), 2);
        assertThat(d.cause()).isEqualTo("CPU-bound: fewer cores than threads");
        assertThat(d.detail()).contains("on 2 cores").contains("90 % busy").contains("18000 us of CPU per request")
                .contains("8 pool threads share the cores");
    }

    @Test void of_manyThreadsStarted_threadCreation() {
        Deviation d = Deviation.of(run("cached", 10_000, 10_000, 700, 100, 50, 10_000, 4000, 100, 10), 2);
        assertThat(d.cause()).isEqualTo("thread creation cost");
        assertThat(d.detail()).contains("10000 platform threads started").contains("60 us per thread");
    }

    @Test void of_aGapThreadsCannotExplain_isNotPutOnThreadCreation_andTheTimeScaleCauseGivesTheCpuPerRequest() {
        // 160 threads started and 620 ms over the prediction: 3.9 ms a thread, no thread costs that much to start
        Deviation d = Deviation.of(run("invokeall:16", 160, 160, 720, 100, 50, 160, 170, 200, 10), 2);
        assertThat(d.cause()).isEqualTo("time-scale overhead");
        assertThat(d.detail()).contains("620 ms over the prediction").contains("the run used 1250 us of CPU per request");
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

    @Test void of_aConnectionPoolSmallerThanTheModelsThreads_isThePoolBlamed() {
        // fixed:8 over a Jedis pool of 4: 40 BLPOPs of 50 ms, predicted 500 ms, measured 630 ms with 24 requests in flight
        RunResult r = run("fixed:8", 40, 40, 630, 500, 378, 8, 18, 1, 1)
                .withPools(java.util.List.of(new dev.blocklab.result.PoolStats("jedis", 4, 80, 0, 0, 4, 26.8, 173, 173)));
        Deviation d = Deviation.of(r, 2);
        assertThat(d.cause()).isEqualTo("pool saturated");
        assertThat(d.detail()).contains("requests in flight against the jedis pool of 4 connections (fewer than the model's 8 threads), so requests queue"
                + " for a connection (jedis pool 4: peak 4 in use, wait mean 26.8 ms, p99 173 ms)").doesNotContain("a pool of 8 threads");
        assertThat(Deviation.binding(r).orElseThrow().size()).isEqualTo(4);
    }

    @Test void of_aConnectionPool_isJudgedByWhatItMeasured_notByRequestsInFlight() {
        // two connections a request (side-by-side queries): 3.2 requests in flight fill a pool of 4, whose calls waited
        RunResult two = run("virtual", 40, 40, 630, 500, 50, 0, 18, 1, 1)
                .withPools(java.util.List.of(new dev.blocklab.result.PoolStats("jdbc+hikari", 4, 80, 0, 0, 4, 20.0, 95, 120)));
        assertThat(Deviation.littlesLaw(two)).isLessThan(0.9 * 4);
        assertThat(Deviation.of(two, 2).cause()).isEqualTo("pool saturated");
        // 24 requests in flight that hold their connection for a part of their time: never more than 2 of 4 in use
        RunResult part = run("virtual", 40, 40, 630, 500, 378, 0, 18, 1, 1)
                .withPools(java.util.List.of(new dev.blocklab.result.PoolStats("jdbc+hikari", 4, 80, 0, 0, 2, 0.01, 0.05, 0.1)));
        assertThat(Deviation.littlesLaw(part)).isGreaterThan(4);
        assertThat(Deviation.of(part, 2).cause()).isNotEqualTo("pool saturated");
    }

    @Test void binding_theModelsThreadsWhenFewerOrEqual_aSharedConnectionNever_theConnectionPoolForAModelWithoutThreads() {
        var jedis8 = new dev.blocklab.result.PoolStats("jedis", 8, 10, 0, 0, 4, 0, 0, 0);
        var lettuce = new dev.blocklab.result.PoolStats("lettuce" + dev.blocklab.result.PoolStats.SHARED, 1, 10, 0, 0, 3, 0, 0, 0);
        RunResult fixed4 = run("fixed:4", 40, 40, 630, 500, 378, 4, 8, 1, 1);
        assertThat(Deviation.binding(fixed4.withPools(java.util.List.of(jedis8))).orElseThrow().what()).isEqualTo("a pool of 4 threads");
        assertThat(Deviation.binding(run("fixed:8", 40, 40, 630, 500, 378, 8, 8, 1, 1).withPools(java.util.List.of(jedis8))).orElseThrow().what())
                .as("a tie: the threads admit no more than there are connections").isEqualTo("a pool of 8 threads");
        RunResult nonBlocking = run("cf-nonblocking:2", 40, 40, 630, 500, 378, 2, 8, 1, 1).withPools(java.util.List.of(lettuce));
        assertThat(Deviation.binding(nonBlocking)).isEmpty();
        RunResult virtual = run("virtual", 40, 40, 630, 500, 378, 0, 8, 1, 1).withPools(java.util.List.of(jedis8));
        assertThat(Deviation.binding(virtual).orElseThrow().what()).isEqualTo("the jedis pool of 8 connections");
        assertThat(Deviation.littlesLawText(run("virtual", 40, 40, 630, 500, 378, 0, 8, 1, 1))).endsWith("requests in flight");
    }

    @Test void littlesLawText_writesTheThroughputSoTheProductReadsTrue() {
        // 14,286 requests in 1 s: a rate with separators, as Rates.number writes it; 3 requests in 1.6 s: 1.88 with
        // two decimals, as 1.88 x 1 s = 1.88 in flight (1.9 would not multiply to it)
        assertThat(Deviation.littlesLawText(run("cached", 14_286, 14_286, 1000, 100, 375, 0, 8, 1, 1)))
                .startsWith("Little's law: 14,286 req/s x 375 ms mean latency = ");
        assertThat(Deviation.littlesLawText(run("fixed:2", 3, 3, 1600, 100, 1000, 2, 2, 1, 1)))
                .startsWith("Little's law: 1.88 req/s x 1000 ms mean latency = 1.88 requests in flight");
    }
}
