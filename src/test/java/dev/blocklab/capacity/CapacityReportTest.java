package dev.blocklab.capacity;

import dev.blocklab.experiment.RateSearch;
import dev.blocklab.report.Jsons;
import dev.blocklab.result.PoolStats;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CapacityReportTest {
    private static final Capacity.Settings SETTINGS = new Capacity.Settings(Slo.DEFAULTS, new RateSearch(10, 2, 80, 0, 1), 1,
            1_000_000_000L, 0, 42);

    @Test
    void poolNotes_andTheKneesJson_carryEachRunsPools_atTheRateSustainedAndTheRateThatBroke() throws Exception {
        // 2 connections held 50 ms: 40/s at most; at 80/s waits fail
        CapacitySearch.Result search = SETTINGS.search().run(rate -> new Measurement(rate, Math.min(rate, 40), 100, rate > 40 ? 0.5 : 1, 50, 80,
                rate > 40 ? 5000 : 100, 5000, 100, 2048, 10, -1, false, "", null,
                List.of(new PoolStats("jdbc+hikari", 2, (long) rate, rate > 40 ? 50 : 0, 0, 2, rate > 40 ? 900 : 5, rate > 40 ? 1000 : 20, 1000))));
        Capacity.Predicted pool = new Capacity.Predicted(40, 50, 1, "the db pool: 2 connections / 50 ms held per request = 40 req/s");
        Capacity.EntryResult entry = new Capacity.EntryResult("virtual", search, pool,
                Capacity.Why.of(new Entry.InProcess("virtual", dev.blocklab.registry.Registry.parse("virtual")), search, pool, SETTINGS));
        assertThat(CapacityReport.poolNotes(List.of(entry))).containsExactly(
                "virtual at 40/s (sustained): jdbc+hikari pool 2: 40 calls, 0 failed waits, 0 connect failures, peak 2 in use, wait for a connection mean 5.0 ms, p99 20.0 ms, max 1000.0 ms",
                "virtual at 80/s (broke): jdbc+hikari pool 2: 80 calls, 50 failed waits, 0 connect failures, peak 2 in use, wait for a connection mean 900.0 ms, p99 1000.0 ms, max 1000.0 ms"
                        + "; failed waits: no connection came free within the pool timeout (the pool is the limit)");
        var json = Jsons.mapper().valueToTree(CapacityReport.of("q", SETTINGS, List.of(entry), "capacity ...", dev.blocklab.result.Environment.current()).rows().getFirst());
        var repeat = json.get("knee").get(0).get("repeats").get(0);
        assertThat(repeat.get("pools").get(0).get("client").asText()).isEqualTo("jdbc+hikari");
        assertThat(repeat.get("pools").get(0).get("calls").asLong()).isEqualTo(10);
        var simulated = Jsons.mapper().valueToTree(new Measurement(10, 10, 100, 1, 50, 80, 100, 1000, 100, 2048, 10, -1, false, "", null));
        assertThat(simulated.has("pools")).as("absent without a real server's pool").isFalse();
    }

    @Test
    void textAt120Columns_keepsEveryKneeRowsVerdict_wrappedBesideTheFigures() {
        // a pool of 40/s: above it the backlog grows and p99 breaks, so the verdicts are long sentences
        CapacitySearch.Result search = SETTINGS.search().run(rate -> new Measurement(rate, Math.min(rate, 40), 100, 1, 50, 80,
                rate > 40 ? 1342.5 : 100, 5000, 100, 2048, 10, -1, false, "", Math.min(rate, 38.7)));
        Capacity.Predicted pool = new Capacity.Predicted(40, 50, 1, "a pool of 2 threads (fixed:2) holding each request 50 ms = 40/s");
        Capacity.EntryResult entry = new Capacity.EntryResult("fixed:2", search, pool,
                Capacity.Why.of(new Entry.InProcess("fixed:2", dev.blocklab.registry.Registry.parse("fixed:2")), search, pool, SETTINGS));
        String text = dev.blocklab.report.ReportFormat.TEXT.create(120)
                .render(CapacityReport.of("q", SETTINGS, List.of(entry), "capacity ...", dev.blocklab.result.Environment.current()));
        String knee = text.substring(text.indexOf("Knee curve"));
        knee = knee.substring(0, knee.indexOf("\n\n"));
        assertThat(knee.lines()).allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(120));
        assertThat(knee.lines().skip(1).findFirst().orElseThrow()).contains("offered req/s", "done req/s", "p99 ms", "verdict");
        assertThat(knee).doesNotContain("more column");
        assertThat(knee.lines().filter(line -> line.endsWith("  met"))).hasSize(3);
        assertThat(knee.replaceAll("\\s+", " ")).contains("1 broke: backlog grew: 38.7/s done of 80/s offered, p99 1,342.5 ms > 550 ms");
    }

    @Test
    void backlog_writesItsRatesAsTheCeilingsAre_thousandsSeparated() {
        // it wrote "875.4/s done of 1000/s offered" beside a predicted ceiling of "1,000/s"
        assertThat(new Measurement(1000, 870, 100, 1, 50, 80, 100, 100, 100, 2048, 10, -1, false, "", 875.4).backlog())
                .contains("backlog grew: 875/s done of 1,000/s offered");
        assertThat(Capacity.ceiling(1000)).isEqualTo("1,000/s");
    }
}
