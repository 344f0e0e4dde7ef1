package dev.blocklab.report;

import dev.blocklab.attack.AttackResults;
import dev.blocklab.result.GoDurations;
import com.fasterxml.jackson.databind.JsonNode;
import dev.blocklab.report.Jsons;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reports against golden files in src/test/resources/golden/; regenerate with
 * {@code -Dgolden.update=true} after an intended change, and review the diff.
 */
class AttackReportTest {
    @Test
    void text_vegetaLayout_matchesGolden() throws IOException {
        String text = AttackReportFormat.TEXT.create().render(AttackResults.sample(3, 0));
        Golden.assertMatches("attack-report.txt", text);
        assertThat(text).startsWith("Requests      [total, rate, throughput]");
        assertThat(text).contains("Latencies     [min, mean, 50, 90, 95, 99, 99.9, 99.99, max]");
        assertThat(text).contains("Status Codes  [code:count]").contains("0:10  200:985  503:5");
        assertThat(text).contains("Error Set:\n");
        assertThat(text).contains("intended send time");
        assertThat(text).doesNotContain("INSTRUMENT-LIMITED");
        assertThat(text).contains("Instrument OK: the attacker added up to 750µs at p99, within its allowance of 49.5ms");
        assertThat(text).doesNotContain("cut off");
    }

    @Test
    void text_requestsCutOff_saysTheirLatenciesAreLowerBounds() {
        String text = AttackReportFormat.TEXT.create().render(AttackResults.sample(3, 0, 4));
        assertThat(text).contains("Target: GET http://127.0.0.1:8080/ at 100/s for 10s\n"
                + "4 requests cut off at the end: their latency counts up to the report, a lower bound.\n");
        assertThat(text).endsWith("'From send' counts from each request's actual send, as vegeta and wrk do.\n");
        assertThat(AttackReportFormat.JSON.create().render(AttackResults.sample(3, 0, 4))).contains("\"cutOff\" : 4");
    }

    @Test
    void text_attackerFellBehind_saysSoFirst() {
        String text = AttackReportFormat.TEXT.create().render(AttackResults.sample(50, 7));
        assertThat(text).startsWith("INSTRUMENT-LIMITED: the attacker, not the target, set the latency and rate figures (the status codes are the target's): 7 of 1007 scheduled requests were never sent");
        assertThat(AttackReportFormat.JSON.create().render(AttackResults.sample(50, 7)))
                .contains("\"limited\" : true").contains("\"fellBehind\" : true");
    }

    @Test
    void text_noRequestSucceeded_leadsWithTheTargetsFailure_andDoesNotBlameTheAttacker() {
        dev.blocklab.result.AttackResult r = AttackResults.deadTarget(5, 0);
        String text = AttackReportFormat.TEXT.create().render(r);
        assertThat(text).startsWith("TARGET FAILED: 0 of 5 requests succeeded (Get http://127.0.0.1:1/: finishConnect(..) failed"
                + " with error(-111): Connection refused (x5)).\n");
        assertThat(text).doesNotContain("INSTRUMENT-LIMITED").contains("Instrument not judged: the target failed (0 of 5 requests succeeded)");
        String json = AttackReportFormat.JSON.create().render(r);
        assertThat(json).contains("\"limited\" : false").contains("\"judged\" : false").contains("\"fellBehind\" : false");
        assertThat(dev.blocklab.attack.Threshold.parse("instrument-limited").violation(r)).isEmpty();
        // a normal run does not mention the target's failure
        assertThat(AttackReportFormat.TEXT.create().render(AttackResults.sample(3, 0))).doesNotContain("TARGET FAILED");
    }

    @Test
    void stoppedInWarmUp_saysNothingWasMeasured_withNoFigures() throws IOException {
        dev.blocklab.result.AttackResult r = AttackResults.stoppedInWarmUp();
        String text = AttackReportFormat.TEXT.create().render(r);
        assertThat(text).startsWith("NOTHING MEASURED: no request of the measured schedule was sent")
                .contains("(stopped before any measured request: nothing measured)")
                .doesNotContain("Latencies", "Requests      [", "0s, 0s");
        JsonNode n = Jsons.mapper().readTree(AttackReportFormat.JSON.create().render(r));
        assertThat(n.get("requests").asLong()).isZero();
        assertThat(n.get("stopped").asBoolean()).isTrue();
        for (String figure : new String[]{"ratePerSecond", "throughputPerSecond", "durationSeconds", "latencyMillis",
                "serviceTimeMillis", "successRatio", "maxLateMillis"})
            assertThat(n.get(figure).isNull()).as(figure).isTrue();
        assertThat(n.get("bytes").get("in").get("mean").isNull()).isTrue();
        assertThat(n.get("instrument").get("ownDelayMillis").isNull()).isTrue();
    }

    @Test
    void json_carriesTheRequiredFields() throws IOException {
        String json = AttackReportFormat.JSON.create().render(AttackResults.sample(3, 0));
        Golden.assertMatches("attack-report.json", json);
        JsonNode n = Jsons.mapper().readTree(json);
        assertThat(n.get("requests").asLong()).isEqualTo(1000);
        assertThat(n.get("successRatio").asDouble()).isEqualTo(0.985);
        for (String k : new String[]{"min", "mean", "p50", "p90", "p95", "p99", "p999", "p9999", "max"})
            assertThat(n.get("latencyMillis").has(k)).as(k).isTrue();
        assertThat(n.get("latencyMillis").get("p50").asDouble()).isBetween(499.0, 501.0);
        assertThat(n.get("statusCodes").get("200").asLong()).isEqualTo(985);
        assertThat(n.get("lateSends").asLong()).isEqualTo(3);
        assertThat(n.get("serviceTimeMillis").get("max").asDouble()).isLessThan(n.get("latencyMillis").get("max").asDouble());
        assertThat(n.get("fellBehind").asBoolean()).isFalse();
        assertThat(n.get("instrument").get("limited").asBoolean()).isFalse();
        assertThat(n.get("instrument").get("ownDelayMillis").get("p99").asDouble()).isBetween(0.4995, 0.5005);
        assertThat(n.get("instrument").get("attackerCpuCores").asDouble()).isEqualTo(0.42);
        assertThat(n.get("cutOff").asLong()).isZero();
    }

    @Test
    void hdr_percentileSpectrum_inMilliseconds() {
        String hdr = AttackReportFormat.HDR.create().render(AttackResults.sample(0, 0));
        Golden.assertMatches("attack-report.hdr", hdr);
        assertThat(hdr).contains("Value     Percentile TotalCount 1/(1-Percentile)");
        assertThat(hdr).contains("#[Max     =     1000.342, Total count    =         1000]");
        assertThat(hdr).contains("     500.171 0.500000000000        500           2.00");
    }

    @Test
    void duration_printsLikeGo() {
        assertThat(GoDurations.format(0)).isEqualTo("0s");
        assertThat(GoDurations.format(512)).isEqualTo("512ns");
        assertThat(GoDurations.format(850_000)).isEqualTo("850µs");
        assertThat(GoDurations.format(108_272_568)).isEqualTo("108.272568ms");
        assertThat(GoDurations.format(10_094_965_987L)).isEqualTo("10.094965987s");
        assertThat(GoDurations.format(2_000_000_000L)).isEqualTo("2s");
    }
}
