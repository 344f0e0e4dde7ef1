package dev.blocklab.shard;

import dev.blocklab.attack.AttackTimeline;
import dev.blocklab.attack.Hit;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.LatencyMillis;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The merge's refusals and its naming of missing and failed shards, on records built in memory. */
class ShardMergeTest {
    private static final long S = 1_000_000_000L;

    /** A record of shard {@code i/n} with {@code samples} latencies of {@code millis} ms each, on schedule {@code rate}. */
    static ShardRecord record(int i, int n, double rate, int samples, long millis) {
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        AttackTimeline t = new AttackTimeline(new dev.blocklab.workload.Arrival.Open(new dev.blocklab.load.Pacer.Constant(rate), S), S);
        for (int k = 0; k < samples; k++) {
            h.recordValue(millis * 1_000_000);
            t.onHit(new Hit(k * n + i, 0, k * 10_000_000L, k * 10_000_000L, millis * 1_000_000, millis * 1_000_000, 200, 2, 0, null));
        }
        List<ShardRecord.Interval> intervals = new ArrayList<>();
        t.counts().forEach((k, c) -> intervals.add(new ShardRecord.Interval(k, c.sent(), c.completed(), c.errors(), Histograms.encode(c.latencyNanos()))));
        InstrumentHealth health = InstrumentHealth.assess(samples, 0, LatencyMillis.of(h),
                InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.EMPTY), InstrumentHealth.Measured.none(2));
        return new ShardRecord(i + "/" + n, "2026-11-23T17:00:00Z", "GET http://127.0.0.1:1/ at " + (long) rate + "/s for 1s",
                List.of("Get http://127.0.0.1:1/"), (long) rate + "/s for 1s", new ShardRecord.PacerSpec("constant", List.of(rate), 0),
                S, S, 1_000_000, samples, 0, samples, 2L * samples, 0, new TreeMap<>(Map.of(200, (long) samples)), new TreeMap<>(),
                i, i * 1_000_000L, false, 0, 0L, (samples - 1) * 10_000_000L, (samples - 1) * 10_000_000L + millis * 1_000_000,
                Histograms.encode(h), Histograms.encode(h), health, intervals, 2L * i);
    }

    @Test
    void of_addsHistogramsAndCounters() {
        ShardMerge m = ShardMerge.of(new ShardMerge.Found(List.of(new ShardMerge.Source("a", record(0, 2, 100, 50, 5)),
                new ShardMerge.Source("b", record(1, 2, 100, 50, 7))), List.of()));
        assertThat(m.problems()).isEmpty();
        assertThat(m.result().requests()).isEqualTo(100);
        assertThat(m.result().latencyMillis().p50()).isCloseTo(5, org.assertj.core.data.Offset.offset(0.01));
        assertThat(m.result().latencyMillis().max()).isCloseTo(7, org.assertj.core.data.Offset.offset(0.01));
        assertThat(m.result().lateSends()).isEqualTo(1);
        assertThat(m.result().retried()).isEqualTo(2);
        assertThat(m.result().maxLateNanos()).isEqualTo(1_000_000);
        assertThat(m.result().statusCodes()).containsExactly(Map.entry(200, 100L));
        assertThat(m.intervals().getFirst().completed()).isEqualTo(100);
        // judged on the worst shard's own delays: too few says whose, beside the merge's count
        assertThat(m.result().health().notJudged())
                .isEqualTo("too few requests (0 in all shards, of 100 sent) to judge the instrument at p99 (it takes 500)");
    }

    /** {@link #record} whose own delays were measured: {@code samples} sends, each {@code lateMillis} late. */
    static ShardRecord withOwnDelays(ShardRecord r, int samples, long lateMillis) {
        Histogram late = new Histogram(3_600_000_000_000L, 3);
        for (int k = 0; k < samples; k++) late.recordValue(lateMillis * 1_000_000);
        InstrumentHealth health = InstrumentHealth.assess(samples, 0, LatencyMillis.of(Histograms.decode(r.latencyHistogram())),
                InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(late)), InstrumentHealth.Measured.none(2));
        return new ShardRecord(r.shard(), r.startAt(), r.description(), r.targets(), r.schedule(), r.pacer(), r.durationNanos(),
                r.intervalNanos(), r.lateThresholdNanos(), r.requests(), r.unsent(), r.successes(), r.bytesIn(), r.bytesOut(),
                r.statusCodes(), r.errors(), r.lateSends(), r.maxLateNanos(), r.stopped(), r.cutOff(), r.firstSendNanos(),
                r.lastSendNanos(), r.lastEndNanos(), r.latencyHistogram(), r.serviceHistogram(), health, r.intervals(), r.retried());
    }

    @Test
    void of_twoShardsTooFewEach_areJudgedTogether_onTheWorstShardsDelays() {
        // 300 requests a shard, under the 500 a verdict takes; 600 together. One shard sent 40 ms late on 5 ms answers.
        ShardMerge m = ShardMerge.of(new ShardMerge.Found(List.of(
                new ShardMerge.Source("a", withOwnDelays(record(0, 2, 300, 300, 5), 300, 40)),
                new ShardMerge.Source("b", withOwnDelays(record(1, 2, 300, 300, 5), 300, 0))), List.of()));
        assertThat(m.result().health().judged()).isTrue();
        assertThat(m.result().health().instrumentLimited()).isTrue();
        assertThat(m.result().health().verdictLine()).contains("the attacker added up to 40");
        // a shard of 3 requests has its slowest send for its p99: the worst is chosen among the shards of 100 or more
        ShardMerge small = ShardMerge.of(new ShardMerge.Found(List.of(
                new ShardMerge.Source("a", withOwnDelays(record(0, 3, 300, 300, 5), 300, 0)),
                new ShardMerge.Source("b", withOwnDelays(record(1, 3, 300, 300, 5), 300, 0)),
                new ShardMerge.Source("c", withOwnDelays(record(2, 3, 300, 3, 5), 3, 40))), List.of()));
        assertThat(small.result().health().instrumentLimited()).isFalse();
        assertThat(small.result().health().judged()).isTrue();
    }

    @Test
    void of_disagreeingSchedules_refusedWithOneLineNamingBoth() {
        assertThatThrownBy(() -> ShardMerge.of(new ShardMerge.Found(List.of(new ShardMerge.Source("shard-0.jsonl", record(0, 2, 100, 5, 5)),
                new ShardMerge.Source("shard-1.jsonl", record(1, 2, 200, 5, 5))), List.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--merge: shard-1.jsonl is not a shard of the same attack as shard-0.jsonl: its schedule is '200/s for 1s', not '100/s for 1s'");
        assertThatThrownBy(() -> ShardMerge.of(new ShardMerge.Found(List.of(new ShardMerge.Source("x", record(0, 2, 100, 5, 5)),
                new ShardMerge.Source("y", record(0, 3, 100, 5, 5))), List.of())))
                .hasMessageContaining("its shard count is '3', not '2'");
        assertThatThrownBy(() -> ShardMerge.of(new ShardMerge.Found(List.of(new ShardMerge.Source("x", record(1, 2, 100, 5, 5)),
                new ShardMerge.Source("y", record(1, 2, 100, 5, 5))), List.of())))
                .hasMessage("--merge: shard 1/2 appears twice (x and y)");
    }

    @Test
    void read_missingAndFailedShards_areNamedInTheResult(@TempDir Path dir) throws Exception {
        var mapper = dev.blocklab.report.Jsons.mapper();
        Path ok = dir.resolve("shard-0.jsonl"), failed = dir.resolve("shard-1.jsonl");
        var node = mapper.createObjectNode().put("kind", ShardRecord.KIND);
        node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(record(0, 3, 100, 5, 5)));
        Files.writeString(ok, "some log line\n" + mapper.writeValueAsString(node) + "\n");
        Files.writeString(failed, "{\"kind\":\"attack-interval-live\"}\n");
        ShardMerge m = ShardMerge.of(ShardMerge.read(List.of(ok, failed)));
        assertThat(m.problems()).containsExactly(
                "failed shard: shard-1.jsonl holds no shard record (the worker failed or was stopped before its end)",
                "shard 1/3 is missing: its requests are not in these figures",
                "shard 2/3 is missing: its requests are not in these figures");
        var experiment = m.experiment(null);
        assertThat(experiment.notes().getFirst()).startsWith("INCOMPLETE: failed shard: shard-1.jsonl");
        assertThat(experiment.description()).as("named first, in the title").startsWith("INCOMPLETE, ");
        // a whole attack saved on its own (its final timeline, no shard record) is not a failed worker
        Path whole = dir.resolve("attack.jsonl");
        Files.writeString(whole, "{\"kind\":\"attack-interval-live\"}\n{\"kind\":\"attack-interval\",\"startNanos\":0}\n");
        assertThat(ShardMerge.of(ShardMerge.read(List.of(ok, whole))).problems())
                .contains("failed shard: attack.jsonl is an attack saved on its own (no --shard or --workers), not a shard of one");
        assertThat(experiment.description()).endsWith("(1 of 3 shards merged)");
        assertThat(m.shardsTable().rows()).hasSize(4);
    }

    @Test
    void read_recordCutShort_isAFailedShardNotAnError(@TempDir Path dir) throws Exception {
        var mapper = dev.blocklab.report.Jsons.mapper();
        Path ok = dir.resolve("shard-0.jsonl"), cut = dir.resolve("shard-1.jsonl"), bad = dir.resolve("shard-2.jsonl");
        String[] lines = new String[2];
        for (int i = 0; i < 2; i++) {
            var node = mapper.createObjectNode().put("kind", ShardRecord.KIND);
            node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(record(i, 2, 100, 5, 5)));
            lines[i] = mapper.writeValueAsString(node);
        }
        Files.writeString(ok, lines[0] + "\n");
        Files.writeString(cut, "log line\n" + lines[1].substring(0, lines[1].length() / 2));   // stopped mid-write: no line feed
        ShardMerge m = ShardMerge.of(ShardMerge.read(List.of(ok, cut)));
        assertThat(m.problems()).containsExactly(
                "failed shard: shard-1.jsonl holds its shard record cut short (the file ends in the middle of line 2: the worker was stopped while writing it)",
                "shard 1/2 is missing: its requests are not in these figures");
        assertThat(m.result().requests()).isEqualTo(5);

        Files.writeString(bad, lines[1].substring(0, lines[1].length() / 2) + "\n");   // ended with a line feed: not a cut, a bad line
        assertThatThrownBy(() -> ShardMerge.read(List.of(ok, bad)))
                .hasMessageStartingWith("--merge: " + bad + " line 1: not a shard record (");
    }

    @Test
    void reportMerge_recordCutMidValueThenLineFeed_isOneLineNamingFileAndLine_exitTwo(@TempDir Path dir) throws Exception {
        var mapper = dev.blocklab.report.Jsons.mapper();
        var node = mapper.createObjectNode().put("kind", ShardRecord.KIND);
        node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(record(0, 1, 100, 5, 5)));
        String line = mapper.writeValueAsString(node);
        Path cut = dir.resolve("shard-0.jsonl");
        // cut after a whole value, before the comma that follows it: Jackson names where the open object began
        Files.writeString(cut, "log line\n" + line.substring(0, line.lastIndexOf(',', line.length() / 2)) + "\n");
        dev.blocklab.cli.Cli.Run run = dev.blocklab.cli.Cli.run("report", "--merge", dir.toString());
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err().lines().toList()).singleElement().asString()
                .startsWith("blocklab: --merge: " + cut + " line 2: not a shard record (Unexpected end-of-input: expected close marker for Object (start marker at line 1, column ")
                .endsWith("))").doesNotContain("Source", "REDACTED", "StreamReadFeature");
    }

    @Test
    void histograms_roundTripExactly() {
        Histogram h = new Histogram(1_000, 3_600_000_000_000L, 2);
        for (long v = 1_000; v < 5_000_000_000L; v = v * 3 / 2 + 7) h.recordValue(v);
        assertThat(Histograms.decode(Histograms.encode(h))).isEqualTo(h);
        assertThatThrownBy(() -> Histograms.decode("not base64!")).isInstanceOf(IllegalArgumentException.class);
    }
}
