package dev.blocklab.capacity;

import dev.blocklab.experiment.RateSearch;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecommendationTest {
    private static final Capacity.Settings SETTINGS = new Capacity.Settings(Slo.DEFAULTS, new RateSearch(10, 2, 10_000, 3, 1), 1,
            1_000_000_000L, 0, 42);

    /** An entry whose p99 breaks past {@code knee}/s and whose CPU per request is {@code cpuMicros}. */
    static Capacity.EntryResult entry(String name, double knee, double cpuMicros, Capacity.Predicted predicted) {
        CapacitySearch.Result r = SETTINGS.search().run(rate -> new Measurement(rate, rate, 100, 1, 50, 80,
                rate <= knee ? 100 : 1000, 1000, cpuMicros, 2048, 10, -1, false, "", null));
        return new Capacity.EntryResult(name, r, predicted, Capacity.Why.of(new Entry.InProcess(name, dev.blocklab.registry.Registry.parse("sequential")), r, predicted, SETTINGS));
    }

    /** An entry whose p99 breaks past {@code knee}/s, with CPU per request {@code cpu(rate)}. */
    static Capacity.EntryResult entry(String name, double knee, java.util.function.DoubleUnaryOperator cpu) {
        CapacitySearch.Result r = SETTINGS.search().run(rate -> new Measurement(rate, rate, 100, 1, 50, 80,
                rate <= knee ? 100 : 1000, 1000, cpu.applyAsDouble(rate), 2048, 10, -1, false, "", null));
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        return new Capacity.EntryResult(name, r, none, Capacity.Why.of(new Entry.InProcess(name, dev.blocklab.registry.Registry.parse("sequential")), r, none, SETTINGS));
    }

    @Test
    void of_entriesTiedOnRate_areRankedByCpuAtTheRateTheyHeld_notAtALowerOneAThirdEntrySet() {
        // at 40/s (set by 'slow') a is cheaper; at the 160/s both held, b is: b serves that load for less
        Recommendation rec = Recommendation.of(List.of(entry("slow", 40, rate -> 10), entry("a", 160, rate -> rate <= 40 ? 100 : 500),
                entry("b", 160, rate -> rate <= 40 ? 300 : 200)));
        assertThat(rec.ranked()).extracting(r -> r.result().entry()).containsExactly("b", "a", "slow");
        assertThat(rec.tie()).as("500 against 200 us: no tie").isEmpty();
    }

    @Test
    void tie_cpuWithinTheNoiseAtTheRateBothHeld_isSaidInTheAdvice() {
        Recommendation rec = Recommendation.of(List.of(entry("a", 160, rate -> 1050), entry("b", 160, rate -> 1000)));
        assertThat(rec.tie()).hasValue("b and a tie: both sustained 160/s, and their CPU per request there (1,000 and 1,050 us) differs by 5 %, "
                + "within the noise of one run; either will do, or raise --max-rate or --repeats to tell them apart.");
        assertThat(Advice.lines("w", Slo.DEFAULTS, rec, "cmd")).contains(rec.tie().orElseThrow());
    }

    @Test
    void of_ranksBySustainedRate_thenByCpuAtTheCommonRate() {
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        Recommendation rec = Recommendation.of(List.of(entry("slow", 40, 10, none), entry("fast-costly", 160, 100_000, none),
                entry("fast-cheap", 160, 10_000, none)));
        assertThat(rec.ranked()).extracting(r -> r.result().entry()).containsExactly("fast-cheap", "fast-costly", "slow");
        assertThat(rec.commonPerSecond()).isEqualTo(40.0);
        assertThat(rec.ranked().getFirst().cpuMicrosAtCommonRate()).isEqualTo(10_000.0);
        // a formula with no limit: the bound its measured CPU sets (0.4 of a core busy at 40/s) is beside it
        assertThat(rec.sentences().getFirst()).startsWith("1. fast-cheap sustains 160/s (predicted ceiling: no limit; the formula counts "
                + "the workload's CPU steps, not the process's; at the 10,000 us of CPU a request measured here, ")
                .contains("); compared at the common 40/s (the highest rate every entry that sustained any held): 10,000 us of CPU per request, measured at 40/s: ");
    }

    @Test
    void adviceLines_anEntryThatNeverBroke_readsAtLeast_theOthersTheirRate() {
        // the search's ceiling is 10,000/s: an entry whose knee is above it never breaks, so its rate is a lower bound
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        Recommendation rec = Recommendation.of(List.of(entry("unbroken", 1e9, 10, none), entry("slow", 40, 10, none),
                entry("also-unbroken", 1e9, 20, none)));
        List<String> lines = Advice.lines("w", Slo.DEFAULTS, rec, "./blocklab advise --workload w");
        assertThat(lines).anyMatch(l -> l.startsWith("For w, use unbroken: it kept p99<=550ms and success>=99.9% up to at least "));
        assertThat(lines).anyMatch(l -> l.startsWith("also-unbroken sustains at least "));
        assertThat(lines).anyMatch(l -> l.startsWith("slow sustains 40/s: "));
        assertThat(lines).noneMatch(l -> l.startsWith("Search:"));
        // advise says how it measured, just before the command that reproduces it
        List<String> measured = Advice.lines("w", Slo.DEFAULTS, rec, "Search: open runs of 2s at each rate", "cmd");
        assertThat(measured.subList(measured.size() - 2, measured.size())).containsExactly("Search: open runs of 2s at each rate", "Reproduce: cmd");
    }

    @Test
    void cpuCeiling_isSaidOnlyWhenTheMeasuredCpuBindsBelowTheFormula() {
        int cores = Runtime.getRuntime().availableProcessors();
        double bound = cores * 1e6 / 512;
        assertThat(Advice.cpuCeiling(bound * 10, 512).orElseThrow()).contains("at the 512 us of CPU a request measured here, " + cores + " cores give at most "
                + dev.blocklab.load.Rates.number(bound) + "/s");
        assertThat(Advice.cpuCeiling(Double.POSITIVE_INFINITY, 512).orElseThrow()).contains("at most " + dev.blocklab.load.Rates.number(bound) + "/s");
        assertThat(Advice.cpuCeiling(bound / 2, 512)).isEmpty();   // the formula's own ceiling is the tighter
        assertThat(Advice.cpuCeiling(1000, Double.NaN)).isEmpty();
    }

    @Test
    void cpuCeiling_notFromARateThatKeptTheCpuIdle() {
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        Capacity.EntryResult e = entry("virtual", 1e9, 10, none);
        // 22,082 us a request at 3/s is 0.07 of a core: the process's background work, not a bound
        assertThat(Advice.cpuCeiling(e, 22_082, 3)).isEmpty();
        assertThat(Advice.cpuCeiling(e, 512, 1000)).isPresent();   // half a core at 1,000/s: a bound worth stating
        assertThat(Advice.cpuCeiling(entry("http:play-2.5/sync-blocking", 1e9, 10, none), 512, 1000)).isEmpty();
    }

    @Test
    void tie_twoLowerBounds_areNotRankedByCpu() {
        Capacity.Predicted pool = new Capacity.Predicted(44.4, 100, 1, "a pool of 4");
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        Recommendation rec = Recommendation.of(List.of(entry("virtual", 1e9, 4959, none), entry("fixed:4", 1e9, 2101, pool)));
        assertThat(rec.ranked().getFirst().result().search().isLowerBound()).isTrue();
        assertThat(rec.tie().orElseThrow()).startsWith("fixed:4 and virtual tie: both held every rate up to ")
                .contains("found neither's limit").contains("raise --max-rate");
    }

    @Test
    void tie_twoLoadGeneratorLimits_areNotCalledUnfoundLimits() {
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        java.util.function.Function<String, Capacity.EntryResult> limited = name -> {
            CapacitySearch.Result r = SETTINGS.search().run(rate -> new Measurement(rate, rate, 100, 1, 50, 80, 100, 1000, 100, 2048, 10, -1,
                    rate >= 80, rate >= 80 ? "INSTRUMENT-LIMITED: late sends" : "", null));
            return new Capacity.EntryResult(name, r, none, Capacity.Why.of(new Entry.InProcess(name, dev.blocklab.registry.Registry.parse("sequential")), r, none, SETTINGS));
        };
        Recommendation rec = Recommendation.of(List.of(limited.apply("a"), limited.apply("b")));
        assertThat(rec.ranked().getFirst().result().search().isLowerBound()).isTrue();
        assertThat(rec.tie().map(t -> t.contains("found neither's limit")).orElse(false)).isFalse();   // raising --max-rate would not help
    }

    @Test
    void why_poolCeilingNearTheBreak_namesThePoolFormula() {
        Capacity.Predicted pool = new Capacity.Predicted(80, 100, 1, "a pool of 8 threads holding each request 100ms = 80/s");
        Capacity.EntryResult r = entry("fixed:8", 80, 10, pool);
        assertThat(r.why()).startsWith("its pool: a pool of 8 threads holding each request 100ms = 80/s; it broke at ");
    }

    @Test
    void predict_aJedisPoolBelowTheModelsThreads_isTheCeiling_markedAsAConnectionPool() {
        var blpop = dev.blocklab.registry.Registry.workload("examples/redis-blpop.yaml");
        var redis = new dev.blocklab.datastore.DatastoreSettings(false, null, true, "redis://127.0.0.1:6379", 10, 4, 1_000_000_000L);
        var bounds = new dev.blocklab.datastore.PoolBounds(blpop.graph(), redis);
        Capacity.Predicted fixed8 = Capacity.predict(blpop, Entries.resolve("fixed:8", blpop), SETTINGS, bounds);
        assertThat(fixed8.connectionPool()).isTrue();
        assertThat(fixed8.basis()).startsWith("the Jedis pool");
        assertThat(Capacity.predict(blpop, Entries.resolve("fixed:2", blpop), SETTINGS, bounds).connectionPool())
                .as("2 threads bind before 4 connections").isFalse();
    }

    @Test
    void why_aConnectionPoolBelowTheModelsThreads_isNamed_notTheModelsPool() {
        // fixed:8 over a Jedis pool of 4: the Jedis pool's 80/s binds before the model's 160/s
        Capacity.Predicted jedis = new Capacity.Predicted(80, 100, 1,
                "the Jedis pool: 4 connections / 50 ms held per request = 80 req/s (its own formula: 160/s)", true);
        Capacity.EntryResult r = entry("fixed:8", 80, 10, jedis);
        assertThat(r.why()).startsWith("the Jedis pool: 4 connections / 50 ms held per request = 80 req/s (its own formula: 160/s); it broke at ")
                .doesNotContain("its pool");
    }

    @Test
    void why_heldWellAboveThePredictedCeiling_cautionsThatTheStepMayBeTooShort() {
        Capacity.Predicted pool = new Capacity.Predicted(8, 1000, 1, "a pool of 8 threads holding each request 1s = 8/s");
        Capacity.EntryResult above = entry("fixed:8", 15, 10, pool);   // a 1 s step passed 15/s: no queue had time to build
        assertThat(above.why()).endsWith("(it held 15/s, above its predicted ceiling of 8/s: a queue may not build far enough within one 1 s step "
                + "to break an objective; measure again with a longer --step)");
        assertThat(entry("fixed:8", 9, 10, pool).why()).doesNotContain("predicted ceiling of");   // near the ceiling: no caution
    }

    @Test
    void why_aCoarseSearchBreakingAtTwiceTheCeilingItHeld_isExplainedByTheCeiling() {
        // no bisection: 40/s held, 80/s broke, the formula's ceiling 40/s. The ceiling was not named, as 80/s is 2 x it.
        var coarse = new Capacity.Settings(Slo.DEFAULTS, new RateSearch(10, 2, 10_000, 0, 1), 1, 1_000_000_000L, 0, 42);
        CapacitySearch.Result r = coarse.search().run(rate -> new Measurement(rate, Math.min(rate, 40), 100, 1, 50, 80,
                rate <= 40 ? 100 : 1000, 1000, 10, 2048, 10, -1, false, "", Math.min(rate, 40.0)));
        Capacity.Predicted pool = new Capacity.Predicted(40, 100, 1, "the db pool: 2 connections / 50 ms held per request = 40 req/s");
        String why = Capacity.Why.of(new Entry.InProcess("virtual", dev.blocklab.registry.Registry.parse("virtual")), r, pool, coarse);
        assertThat(r.sustainablePerSecond()).isEqualTo(40.0);
        assertThat(why).startsWith("the db pool: 2 connections / 50 ms held per request = 40 req/s; it broke at 80/s");
    }

    @Test
    void why_cpuBusyAtTheBreak_namesCpuPerRequestAndCores() {
        // 20 000 us a request at the broken 90/s is 1.8 cores of 2: CPU decides
        Capacity.EntryResult r = entry("virtual", 80, 20_000, new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit"));
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores <= 2) assertThat(r.why()).startsWith("CPU: 20,000 us per request on " + cores + " cores caps it at");
        else assertThat(r.why()).contains("neither its formula's ceiling");
    }

    @Test
    void why_failuresByDesign_areNamedWithTheirShare() {
        Capacity.EntryResult r = entry("virtual", 80, 10, new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 0.99, "no limit"));
        assertThat(r.why()).startsWith("its own calls fail by design: 99.00 % of requests can succeed, under the objective's 99.90 %");
    }

    @Test
    void advice_plainWords_withTheReproducingCommand() {
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        Recommendation rec = Recommendation.of(List.of(entry("fixed:8", 40, 10, none), entry("virtual", 160, 50, none)));
        List<String> lines = Advice.lines("my.yaml", Slo.DEFAULTS, rec, "./blocklab capacity --workload my.yaml");
        assertThat(lines.getFirst()).startsWith("For my.yaml, use virtual: it kept p99<=550ms and success>=99.9% up to 160 requests a second (p99 100 ms there");
        assertThat(lines).last().isEqualTo("Reproduce: ./blocklab capacity --workload my.yaml");
    }

    @Test
    void report_cpuAtTheCommonRate_namesTheRateEachFigureWasMeasuredAt_andNoLimitIsNullInJson() {
        // 'slow' sustains 45/s (a bisection); 'fast' was measured at 40/s and 80/s, never at 45/s, so its figure is labelled
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        Capacity.Predicted pool = new Capacity.Predicted(200, 100, 1, "a pool");
        var report = CapacityReport.of("w", SETTINGS, List.of(entry("slow", 45, 10, pool), entry("fast", 160, 50, none)), "cmd",
                dev.blocklab.result.Environment.current());
        var table = report.tables().getFirst();
        assertThat(table.columns()).contains("cpu us/req at 45/s");
        int cpu = table.columns().indexOf("cpu us/req at 45/s");
        assertThat(table.rows()).extracting(row -> row.get(1) + " " + row.get(cpu)).containsExactly("fast 50.00 (at 40/s)", "slow 10.00");
        assertThat(report.rows()).extracting(row -> ((CapacityReport.Row) row).predictedCeilingPerSecond()).containsExactly(null, 200.0);
    }

    @Test
    void report_kneeCurvesDoneRate_isTheFigureTheVerdictJudged_whereMeasured() {
        // a backlog: 70 % of the offer done within the step, 50 % over the run's wall time (the drain included). The
        // knee row once showed the latter beside a verdict quoting the former.
        CapacitySearch.Result backlogged = SETTINGS.search().run(rate -> new Measurement(rate, rate * 0.5, 100, 1, 50, 80,
                100, 1000, 10, 2048, 10, -1, false, "", rate * 0.7));
        Capacity.Predicted none = new Capacity.Predicted(Double.POSITIVE_INFINITY, 100, 1, "no limit");
        var entry = new Capacity.EntryResult("b", backlogged, none,
                Capacity.Why.of(new Entry.InProcess("b", dev.blocklab.registry.Registry.parse("sequential")), backlogged, none, SETTINGS));
        var knee = CapacityReport.of("w", SETTINGS, List.of(entry), "cmd", dev.blocklab.result.Environment.current()).tables().get(1);
        int done = knee.columns().indexOf("done req/s");
        List<String> at10 = knee.rows().stream().filter(row -> row.get(1).equals("10")).findFirst().orElseThrow();
        assertThat(at10.get(done)).isEqualTo("7.00");
        assertThat(at10.getLast()).isEqualTo("broke: backlog grew: 7/s done of 10/s offered");
    }

    @Test
    void predict_randomLatencies_noLimitForAModelWithoutOne_aCeilingForAPool() {
        // a call of drawn latency: virtual's "ceiling" was 10,000 requests over the slowest of 10,000 draws (9,059/s on
        // mixed), a figure that moved with the batch's size
        var mixed = new dev.blocklab.workload.Workload("drawn", "one log-normal call", new dev.blocklab.workload.Graph(0L, List.of(
                new dev.blocklab.workload.Step.Call("orders", List.of(), new dev.blocklab.workload.Latency.LogNormal(40_000_000L, 250_000_000L),
                        new dev.blocklab.workload.Value.Constant(1L), 0, null, 0))), new dev.blocklab.workload.Arrival.Batch(10));
        assertThat(dev.blocklab.workload.RequestTimes.isRandom(mixed.graph())).isTrue();
        Capacity.Predicted virtual = Capacity.predict(mixed, Entries.resolve("virtual", mixed), SETTINGS);
        assertThat(virtual.ceilingPerSecond()).as(virtual.basis()).isInfinite();
        assertThat(virtual.basis()).startsWith("its formula names no throughput limit");
        assertThat(Capacity.predict(mixed, Entries.resolve("fixed:16", mixed), SETTINGS).ceilingPerSecond()).isBetween(100.0, 300.0);
    }

    @Test
    void predictedBasis_saysOneRequestAloneOnce_andAPoolOfOneThread() {
        var reactor = Entries.resolve("reactor", dev.blocklab.registry.Registry.workload(dev.blocklab.registry.Registry.FRAMEWORKS_WORKLOAD));
        Capacity.Predicted p = Capacity.predict(dev.blocklab.registry.Registry.workload(dev.blocklab.registry.Registry.FRAMEWORKS_WORKLOAD), reactor, SETTINGS);
        assertThat(p.basis()).contains("one request alone: ").doesNotContain("one request alone: one request alone:");
        var one = (Entry.Http) Entries.resolve("http:threads:1/sync-blocking", dev.blocklab.workload.BuiltInWorkloads.profilePage());
        assertThat(Capacity.http(one).basis()).startsWith("a pool of 1 thread (");
    }

    @Test
    void predictedBasis_writesDurationsForAReader_notExactly() {
        // 100,000 requests on 8 threads of 1 s each: 12,500 s, not 12500s; a profile's thread holds a request 1 s
        var hundred = dev.blocklab.workload.BuiltInWorkloads.hundredCalls();
        Capacity.Predicted fixed8 = Capacity.predict(hundred, Entries.resolve("fixed:8", hundred), SETTINGS);
        assertThat(fixed8.basis()).startsWith("a long batch (100,000 requests, a model of steady load) takes 12,500 s by its formula (")
                .endsWith(") = 8/s");
        var one = (Entry.Http) Entries.resolve("http:threads:1/sync-blocking", dev.blocklab.workload.BuiltInWorkloads.profilePage());
        assertThat(Capacity.http(one).basis()).endsWith("holding each request 1 s = 1/s");
    }
}
