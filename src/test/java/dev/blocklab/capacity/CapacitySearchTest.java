package dev.blocklab.capacity;

import dev.blocklab.experiment.RateSearch;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The search is pure logic: every test measures with a fake meter, a function of the rate. */
class CapacitySearchTest {
    private final List<Slo> slos = Slo.DEFAULTS;

    /** A pool of 8 threads holding each request 100 ms: p99 100 ms below 80/s, then a queue that grows with the rate. */
    static Measurement pool(double rate) {
        double p99 = rate <= 80 ? 100 : 100 + (rate - 80) * 20;
        return SloTest.at(rate, p99, 1);
    }

    @Test
    void run_growsUntilTheSloBreaks_thenBisects() {
        List<Double> tried = new ArrayList<>();
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 10_000, 3, 1), 1, slos);
        CapacitySearch.Result r = search.run(rate -> {
            tried.add(rate);
            return pool(rate);
        });
        // 10, 20, 40, 80 met; 160 broke (p99 1700 ms); bisect 120 (broke: 900), 100 (broke: 500? no: 100+20*20=500 met), 110
        assertThat(tried).startsWith(10.0, 20.0, 40.0, 80.0, 160.0, 120.0, 100.0);
        assertThat(r.sustainablePerSecond()).isEqualTo(100.0);
        assertThat(r.brokenPerSecond()).isEqualTo(110.0);
        assertThat(r.instrumentLimited()).isFalse();
        assertThat(r.stopReason()).isEqualTo("at 110/s: p99 700.0 ms > 550 ms");
        assertThat(r.points()).extracting(Point::ratePerSecond).isSorted();
        assertThat(r.atSustainable()).isPresent();
    }

    @Test
    void run_repeatsEachRate_andJudgesTheMedian_soOneNoisyRunNeitherEndsNorExtendsIt() {
        int[] calls = {0};
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 10_000, 3, 1), 3, slos);
        CapacitySearch.Result r = search.run(rate -> {
            // every third run is a noisy outlier of 5 s at any rate
            Measurement m = pool(rate);
            return calls[0]++ % 3 == 1 ? SloTest.at(rate, 5000, 1) : m;
        });
        assertThat(r.sustainablePerSecond()).isEqualTo(100.0);
        Point at100 = r.atSustainable().orElseThrow();
        assertThat(at100.repeats()).hasSize(3);
        assertThat(at100.median().p99Millis()).isEqualTo(500.0);
        assertThat(at100.p99MaxMillis()).isEqualTo(5000.0);
        assertThat(calls[0] % 3).isZero();
    }

    @Test
    void run_instrumentLimited_isALowerBoundNeverTheEntrysCapacity() {
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 10_000, 0, 1), 1, slos);
        CapacitySearch.Result r = search.run(rate -> rate >= 40
                ? new Measurement(rate, rate, 100, 1, 1, 1, 1, 1, 1, 1, 1, -1, true, "INSTRUMENT-LIMITED: 3 of 400 never sent", null)
                : SloTest.at(rate, 10, 1));
        assertThat(r.sustainablePerSecond()).isEqualTo(20.0);
        assertThat(r.instrumentLimited()).isTrue();
        assertThat(r.stopReason()).contains("the load generator was the limit at 40/s", "never sent", "lower bound");
    }

    @Test
    void run_successObjective_breaksOnFailures() {
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 10_000, 0, 1), 1, slos);
        CapacitySearch.Result r = search.run(rate -> SloTest.at(rate, 10, rate >= 80 ? 0.99 : 1));
        assertThat(r.sustainablePerSecond()).isEqualTo(40.0);
        assertThat(r.stopReason()).isEqualTo("at 80/s: success 99.00 % < 99.9 % (of 100 requests; the upper end of its 95 % interval 99.78 %)");
    }

    @Test
    void run_neverBreaks_reportsTheCeiling() {
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 100, 2, 1), 1, slos);
        CapacitySearch.Result r = search.run(rate -> SloTest.at(rate, 10, 1));
        assertThat(r.sustainablePerSecond()).isEqualTo(100.0);
        assertThat(r.brokenPerSecond()).isZero();
        assertThat(r.stopReason()).contains("ceiling of 100/s");
    }

    @Test
    void run_aRateWhoseBacklogGrows_isNotMet_evenWithinTheP99() {
        // fixed:8 holding each request 1 s (ceiling 8/s), 2 s steps, p99<=1500ms (smoke test #16): at 10/s the queue
        // grows 2 a second but the p99 (1.4 s) stays under the bound; only 8 of 10 requests a second complete
        CapacitySearch search = new CapacitySearch(new RateSearch(4, 2, 100, 0, 1), 1, List.of(Slo.parse("p99<=1500ms")));
        CapacitySearch.Result r = search.run(rate -> new Measurement(rate, rate * 0.6, (long) (rate * 2), 1, 1000, 1200, 1400, 1400,
                100, 1024, 10, -1, false, "", Math.min(rate, 8.0)));
        assertThat(r.sustainablePerSecond()).isEqualTo(8.0);
        assertThat(r.brokenPerSecond()).isEqualTo(16.0);
        assertThat(r.stopReason()).isEqualTo("at 16/s: backlog grew: 8/s done of 16/s offered");
    }

    @Test
    void run_completionsNotMeasured_judgesTheObjectivesAlone() {
        CapacitySearch search = new CapacitySearch(new RateSearch(4, 2, 100, 0, 1), 1, List.of(Slo.parse("p99<=1500ms")));
        CapacitySearch.Result r = search.run(rate -> new Measurement(rate, rate * 0.6, (long) (rate * 2), 1, 1000, 1200, 1400, 1400,
                100, 1024, 10, -1, false, "", null));
        assertThat(r.brokenPerSecond()).isZero();
    }

    @Test
    void stepCompletions_countOnlyWithinTheStep_perSecondAfterTheFastestLatency() {
        long[] now = {0};
        Meters.StepCompletions step = new Meters.StepCompletions(2_000_000_000L, () -> now[0]);
        List<java.util.concurrent.CompletableFuture<Object>> pending = new ArrayList<>();
        dev.blocklab.model.Model fake = new dev.blocklab.model.Model() {
            @Override public String name() { return "fake"; }
            @Override public java.util.concurrent.CompletableFuture<Object> submit(dev.blocklab.workload.Request request) {
                var f = new java.util.concurrent.CompletableFuture<Object>();
                pending.add(f);
                return f;
            }
            @Override public dev.blocklab.model.Prediction predict(dev.blocklab.model.Demand demand) { throw new UnsupportedOperationException(); }
            @Override public void close() {}
        };
        var watched = step.watch(fake);
        for (int i = 0; i < 12; i++) assertThat(watched.submit(null)).isSameAs(pending.getLast());   // the model's own future
        // the first submission (at 0) starts the step; 8 complete by 1.9 s, 4 after the step's end at 2 s
        now[0] = 1_900_000_000L;
        for (int i = 0; i < 8; i++) pending.get(i).complete(i);
        now[0] = 2_100_000_000L;
        for (int i = 8; i < 12; i++) pending.get(i).complete(i);
        assertThat(step.perSecond(1_000_000_000L)).isEqualTo(8.0);   // 8 over the 1 s after the fastest latency
        assertThat(step.perSecond(1_600_000_000L)).isNull();         // 0.4 s left of a 2 s step: too little to judge
    }

    @Test
    void run_namesEachRepeatsPhase_forProgressLines() {
        List<String> phases = new ArrayList<>();
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 10, 0, 1), 3, slos);
        search.run(new CapacitySearch.Meter() {
            @Override public Measurement measure(double rate) { throw new AssertionError("the search names the phase"); }
            @Override public Measurement measure(double rate, String phase) {
                phases.add(phase);
                return SloTest.at(rate, 10, 1);
            }
        });
        assertThat(phases).containsExactly("run 1/3", "run 2/3", "run 3/3");   // it said 'run 1/1' three times
    }

    @Test
    void run_instrumentLimitedBecauseTheMachineWasSaturated_saysTheMachine_once() {
        CapacitySearch search = new CapacitySearch(new RateSearch(10, 2, 10_000, 0, 1), 1, slos);
        CapacitySearch.Result r = search.run(rate -> rate >= 40
                ? new Measurement(rate, rate, 100, 1, 1, 1, 1, 1, 1, 1, 1, -1, true, "INSTRUMENT-LIMITED: the machine was saturated by other work, "
                        + "so the attacker, not the target, set the latency and rate figures (the status codes are the target's): the attacker added 68.6ms at p99 (attacker CPU 0.04 of 2 cores, machine 100% busy).", null)
                : SloTest.at(rate, 10, 1));
        assertThat(r.stopReason()).isEqualTo("the machine was saturated by other work at 40/s, so this is a lower bound "
                + "(the attacker added 68.6ms at p99 (attacker CPU 0.04 of 2 cores, machine 100% busy))");
    }
}
