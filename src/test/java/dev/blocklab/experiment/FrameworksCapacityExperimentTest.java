package dev.blocklab.experiment;

import dev.blocklab.report.DeviationTest;
import dev.blocklab.driver.Progress;
import dev.blocklab.experiment.FrameworksCapacityExperiment.CapacityRow;
import dev.blocklab.experiment.FrameworksCapacityExperiment.StepRow;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import static org.assertj.core.api.Assertions.assertThat;

/** A tiny rate search over two variants: every step judged by the rule, the outcome consistent with the steps. */
class FrameworksCapacityExperimentTest {

    @Test
    void run_tinySearch_verdictsFollowTheRuleAndTheOutcomeFollowsTheSteps() {
        var plan = new FrameworksCapacityExperiment.Plan(20_000_000L, 300_000_000L, new RateSearch(20, 2, 40, 1, 1),
                2_000, 1_000, List.of("sequential", "reactor"));
        List<Object> streamed = new ArrayList<>();
        ExperimentResult result = new FrameworksCapacityExperiment(plan, FrameworkVariants::all)
                .run(new ExperimentSettings(false, 1, Progress.NONE, streamed::add, Environment.current()));

        assertThat(result.rows()).isEqualTo(streamed).hasSize(2);
        List<CapacityRow> rows = result.rows().stream().map(CapacityRow.class::cast).toList();
        assertThat(rows).extracting(CapacityRow::variant).containsExactly("frameworks-sequential", "reactor");
        for (CapacityRow row : rows) {
            assertThat(row.unavailable()).isNull();
            assertThat(row.steps()).isNotEmpty();
            assertThat(row.steps().getFirst().ratePerSecond()).isEqualTo(20);
            for (StepRow s : row.steps()) {
                // An open run of 0.3 s at R req/s sends 0.3 R requests.
                assertThat(s.requests()).as(row.variant() + " at " + s.ratePerSecond()).isEqualTo(Math.round(0.3 * s.ratePerSecond()));
                assertThat(s.sustained()).isEqualTo(s.successRatio() == 1.0 && s.p99Millis() <= s.p99LimitMillis());
                assertThat(s.p99LimitMillis()).as("2 x at least the 20 ms critical path").isGreaterThanOrEqualTo(40.0);
            }
            double highest = row.steps().stream().filter(StepRow::sustained).mapToDouble(StepRow::ratePerSecond).max().orElse(0);
            assertThat(row.highestSustainedPerSecond()).isEqualTo(highest);
            if (highest > 0) assertThat(row.atHighest().ratePerSecond()).isEqualTo(highest);
        }
        // Sequential makes its calls in series, so its unloaded latency and limit are the larger.
        assertThat(rows.get(0).steps().getFirst().p99LimitMillis()).isGreaterThan(rows.get(1).steps().getFirst().p99LimitMillis());
        assertThat(result.scale()).endsWith("backend simulated");
        assertThat(result.tables()).hasSize(2);
        assertThat(result.tables().get(1).rows()).hasSize(rows.stream().mapToInt(r -> r.steps().size()).sum());
        // the knee curves capacity draws, so the HTML page has charts: a line per variant, a point per step
        assertThat(result.charts()).extracting(dev.blocklab.result.Chart::title)
                .containsExactly("p99 latency against offered rate", "p50 latency against offered rate");
        var p99 = (dev.blocklab.result.Chart.LineChart) result.charts().getFirst();
        assertThat(p99.series()).extracting(dev.blocklab.result.Series::name).containsExactly("frameworks-sequential", "reactor");
        assertThat(p99.series().getFirst().points()).hasSize(rows.getFirst().steps().size())
                .allSatisfy(point -> assertThat(rows.getFirst().steps()).anySatisfy(s ->
                        assertThat(List.of(s.ratePerSecond(), s.p99Millis())).containsExactly(point.x(), point.y())));
    }

    /** Over {@code --backend http}: one real server for the whole search, every step's requests answered through it. */
    @Test
    void run_httpBackend_everyStepAnsweredOverARealServer() {
        var plan = new FrameworksCapacityExperiment.Plan(20_000_000L, 300_000_000L, new RateSearch(20, 2, 40, 0, 1),
                2_000, 1_000, List.of("reactor"));
        ExperimentResult result = new FrameworksCapacityExperiment(plan, FrameworkVariants::all)
                .run(new ExperimentSettings(false, 1, Progress.NONE, row -> {}, Environment.current())
                        .withBackend(ExperimentSettings.CallBackend.HTTP));

        CapacityRow row = (CapacityRow) result.rows().getFirst();
        assertThat(row.variant()).isEqualTo("reactor");
        assertThat(row.unavailable()).isNull();
        assertThat(row.steps()).isNotEmpty();
        for (StepRow s : row.steps()) {
            assertThat(s.requests()).as("at " + s.ratePerSecond()).isEqualTo(Math.round(0.3 * s.ratePerSecond()));
            assertThat(s.successRatio()).as("at " + s.ratePerSecond() + ": " + s.reason()).isEqualTo(1.0);
        }
        assertThat(result.scale()).endsWith("backend http");
        assertThat(result.notes().getFirst()).startsWith("Backend: HTTP");
        assertThat(Experiments.require("frameworks-capacity").choosesBackend()).isTrue();
    }

    /**
     * The unloaded latency comes from the variant's formula: the variant is started once per step it runs and never
     * to be asked for its prediction (it was started once more, before the first step, for that).
     */
    @Test
    void run_unloadedLatencyFromTheFormula_startsTheVariantOnlyForItsSteps() {
        var plan = new FrameworksCapacityExperiment.Plan(20_000_000L, 300_000_000L, new RateSearch(20, 2, 40, 0, 1),
                2_000, 1_000, List.of());
        FrameworkVariants.Variant reactor = FrameworkVariants.named("reactor", FrameworkVariants.ARTICLE_POOL_200MS);
        AtomicInteger started = new AtomicInteger();
        AtomicInteger predicted = new AtomicInteger();
        FrameworkVariants.Variant counted = new FrameworkVariants.Variant("reactor", reactor.description(), reactor.unavailable(),
                (backend, useCase) -> {
                    started.incrementAndGet();
                    return reactor.create(backend, useCase);
                },
                d -> {
                    predicted.incrementAndGet();
                    return reactor.formula().apply(d);
                }, reactor.failsFast());
        ExperimentResult result = new FrameworksCapacityExperiment(plan, pool -> List.of(counted))
                .run(new ExperimentSettings(false, 1, Progress.NONE, row -> {}, Environment.current()));

        CapacityRow row = (CapacityRow) result.rows().getFirst();
        assertThat(row.steps()).isNotEmpty();
        assertThat(started).as("one instance per step run, none to predict").hasValue(row.steps().size());
        assertThat(predicted).as("the formula was asked").hasPositiveValue();
        // the same limit as a started instance's own prediction gives
        var rs = dev.blocklab.driver.RunSettings.DEFAULTS.withTimeScale(1);
        var one = dev.blocklab.frameworks.FrameworksUseCase.workload(plan.slowDelayNanos(), new dev.blocklab.workload.Arrival.Batch(1));
        double fromAnInstance = FrameworksCapacityExperiment.unloadedMillis(one, new dev.blocklab.driver.InProcessDriver().predict(one,
                c -> reactor.create(c.backend(), new dev.blocklab.frameworks.FrameworksUseCase(plan.ints(), plan.longs())), rs), rs);
        assertThat(row.steps()).allSatisfy(s -> assertThat(s.p99LimitMillis())
                .isEqualTo(FrameworksCapacityExperiment.P99_LIMIT_FACTOR * fromAnInstance));
    }

    /** A variant whose every request fails: no rate holds, the refinement goes below the first rate, the reason is kept. */
    @Test
    void run_variantThatFailsEveryRequest_sustainsNothingAndSaysWhy() {
        var plan = new FrameworksCapacityExperiment.Plan(20_000_000L, 200_000_000L, new RateSearch(20, 2, 40, 1, 1),
                2_000, 1_000, List.of());
        Function<Demand, Prediction> criticalPath = d -> new Prediction(d.criticalPathNanos(), "critical path");
        FrameworkVariants.Variant down = new FrameworkVariants.Variant("down", "fails every request", Optional.empty(),
                (backend, useCase) -> new Model() {
                    @Override public String name() { return "down"; }
                    @Override public CompletableFuture<Object> submit(Request request) {
                        return CompletableFuture.failedFuture(new IllegalStateException("service down"));
                    }
                    @Override public Prediction predict(Demand d) { return criticalPath.apply(d); }
                    @Override public void close() {}
                }, criticalPath, true);
        ExperimentResult result = new FrameworksCapacityExperiment(plan, pool -> List.of(down))
                .run(new ExperimentSettings(false, 1, Progress.NONE, row -> {}, Environment.current()));

        CapacityRow row = (CapacityRow) result.rows().getFirst();
        assertThat(row.steps()).extracting(StepRow::ratePerSecond).containsExactly(20.0, 10.0);
        assertThat(row.highestSustainedPerSecond()).isZero();
        assertThat(row.lowestFailedPerSecond()).isEqualTo(10);
        assertThat(row.atHighest()).isNull();
        assertThat(row.failedBecause()).startsWith("0.00 % ok (2 of 2 failed");
        assertThat(result.tables().getFirst().rows().getFirst()).contains("< 10.00");
    }

    /** A run judged against the unloaded latency its own prediction gives (what the search does at its first rate). */
    private static RateSearch.Verdict<StepRow> judgedByItsOwnPrediction(double rate, dev.blocklab.result.RunResult r) {
        return FrameworksCapacityExperiment.judge(rate, r, Math.max(r.prediction().predictedMillis(), r.prediction().idealMillis()));
    }

    /** The rule itself: every request ok, and p99 within twice the larger of the prediction and the critical path. */
    @Test
    void judge_table() {
        // DeviationTest.run: latency percentiles all equal the mean; critical path (idealMillis) 1 ms.
        var ok = judgedByItsOwnPrediction(50, DeviationTest.run("reactor", 150, 150, 3200, 200, 399, 0, 20, 900, 1));
        assertThat(ok.sustained()).isTrue();
        assertThat(ok.measurement().p99LimitMillis()).isEqualTo(400.0);
        var slow = judgedByItsOwnPrediction(50, DeviationTest.run("reactor", 150, 150, 3200, 200, 401, 0, 20, 900, 1));
        assertThat(slow.sustained()).isFalse();
        assertThat(slow.reason()).isEqualTo("p99 401 ms > 400 ms (2 x unloaded 200 ms)");
        var oneFailed = judgedByItsOwnPrediction(50, DeviationTest.run("reactor", 1000, 999, 3200, 200, 210, 0, 20, 900, 1));
        assertThat(oneFailed.sustained()).isFalse();
        assertThat(oneFailed.reason()).startsWith("99.90 % ok (1 of 1000 failed");
        var serial = judgedByItsOwnPrediction(50, DeviationTest.run("sequential", 150, 150, 3200, 440, 800, 0, 20, 900, 1));
        assertThat(serial.sustained()).as("sequential's own unloaded latency is 440 ms").isTrue();
        assertThat(serial.measurement().p99LimitMillis()).isEqualTo(880.0);
    }

    /**
     * Above a pool's capacity the run's own prediction includes the queue (here 6,900 ms for a 200 ms job): judged
     * against the variant's unloaded latency from its first rate, the step fails; against its own prediction it
     * passed (as it did in the published search until 2026-11-27: a 16-thread pool "sustained" 200 a second).
     */
    @Test
    void judge_aboveCapacity_usesTheUnloadedLatencyNotTheQueuedPrediction() {
        var queued = DeviationTest.run("invokeall:16", 600, 600, 3200, 6900, 13548, 0, 20, 900, 1);
        assertThat(judgedByItsOwnPrediction(200, queued).sustained()).as("the old rule").isTrue();
        var judged = FrameworksCapacityExperiment.judge(200, queued, 206);
        assertThat(judged.sustained()).isFalse();
        assertThat(judged.reason()).isEqualTo("p99 13548 ms > 412 ms (2 x unloaded 206 ms)");
    }

    /** The unloaded latency is the variant's prediction for one request alone, whatever its capacity. */
    @Test
    void unloadedMillis_isOneRequestAlone_evenWhereTheFirstRateIsAboveThePredictedCapacity() {
        var rs = dev.blocklab.driver.RunSettings.DEFAULTS.withTimeScale(1);
        var w = dev.blocklab.frameworks.FrameworksUseCase.workload(200_000_000L, new dev.blocklab.workload.Arrival.Open(10, 3_000_000_000L));
        var one = w.withArrival(new dev.blocklab.workload.Arrival.Batch(1));
        // disruptor-stages: 2 requests per 440 ms once a backlog crosses its stages, 4.5 a second, below the first rate
        var stages = dev.blocklab.registry.Registry.parse("disruptor-stages", w);
        assertThat(dev.blocklab.driver.InProcessDriver.predict(w, stages, rs).millis()).as("10/s queues").isGreaterThan(3_000.0);
        assertThat(FrameworksCapacityExperiment.unloadedMillis(one, dev.blocklab.driver.InProcessDriver.predict(one, stages, rs), rs)).isEqualTo(440.0);
        var pool = dev.blocklab.registry.Registry.parse("invokeall:16", w);
        assertThat(FrameworksCapacityExperiment.unloadedMillis(one, dev.blocklab.driver.InProcessDriver.predict(one, pool, rs), rs)).isEqualTo(200.0);
    }
}
