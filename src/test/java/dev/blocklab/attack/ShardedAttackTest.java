package dev.blocklab.attack;

import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.AttackInterval;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.SendLoop;
import dev.blocklab.load.Shard;
import dev.blocklab.driver.Progress;
import dev.blocklab.report.Jsons;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.shard.ShardCapture;
import dev.blocklab.shard.ShardMerge;
import dev.blocklab.shard.ShardRecord;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 17's must-show: one attack split four ways against a local server (127.0.0.1), every shard in its own
 * {@link Attack} from one common start; the shards' records, through their JSON lines, merge into exactly what one
 * recorder (and one timeline) fed every sample reports, and the aggregate schedule is the asked one.
 */
class ShardedAttackTest {
    private static final long S = 1_000_000_000L;
    private static final int SHARDS = 4;
    private static final double RATE = 400;
    private static TrivialServer server;

    @BeforeAll static void start() { server = TrivialServer.start(0, 1); }

    @AfterAll static void stop() { server.close(); }

    @Test
    void fourShards_mergeEqualsOneHistogramOfEverySample_andKeepTheAskedRate(@TempDir Path dir) throws Exception {
        dev.blocklab.workload.Arrival.Open schedule = new dev.blocklab.workload.Arrival.Open(new Pacer.Constant(RATE), 3 * S);
        // two targets, so the round-robin over global request numbers shows too; one answers 503
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/")), Target.get(url("/status/503"))), schedule)
                .withTimeoutNanos(10 * S).withWarmupNanos(S / 2);
        Instant startAt = Instant.now().plusMillis(1500);
        ConcurrentLinkedQueue<Hit> everySample = new ConcurrentLinkedQueue<>();
        List<ShardRecord> records = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(SHARDS)) {
            List<Future<ShardRecord>> futures = new ArrayList<>();
            for (int i = 0; i < SHARDS; i++) {
                Shard shard = new Shard(i, SHARDS);
                futures.add(pool.submit(() -> {
                    ShardCapture capture = new ShardCapture(new AttackTimeline(schedule, shard, settings.intervalNanos()));
                    AttackListener all = new AttackListener() {
                        @Override public void onHit(Hit hit) { everySample.add(hit); capture.onHit(hit); }
                    };
                    AttackResult r = new Attack(settings, shard, startAt).run(Progress.NONE, all);
                    return ShardRecord.of(shard, startAt, settings, r, capture);
                }));
            }
            for (Future<ShardRecord> f : futures) records.add(f.get());
        }
        // each shard's record goes through its JSON line, as a file on disk
        ObjectMapper mapper = Jsons.mapper();
        List<Path> files = new ArrayList<>();
        for (ShardRecord r : records) {
            Path f = dir.resolve("shard-" + r.parsedShard().index() + ".jsonl");
            var node = mapper.createObjectNode().put("kind", ShardRecord.KIND);
            node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(r));
            Files.writeString(f, mapper.writeValueAsString(node) + "\n");
            files.add(f);
        }
        ShardMerge merged = ShardMerge.of(ShardMerge.read(files));
        assertThat(merged.problems()).isEmpty();
        AttackResult m = merged.result();

        // the shards interleave: every global request number once, each due on the global schedule
        long scheduled = schedule.pacer().dueBy(schedule.durationNanos() - 1);
        assertThat(m.requests() + m.unsent()).isEqualTo(scheduled);
        List<Long> indices = everySample.stream().map(Hit::index).sorted().toList();
        assertThat(indices).doesNotHaveDuplicates().hasSize((int) m.requests());
        for (Hit h : everySample) {
            assertThat(h.intendedNanos()).isEqualTo(schedule.pacer().dueNanos(h.index()));
            assertThat(h.target()).as("round-robin by global number").isEqualTo((int) (h.index() % 2));
        }
        // the aggregate schedule is within 1 % of the asked rate in every interval: requests due (by their intended
        // time, over all shards) per interval, and the merged timeline's scheduled counts
        long[] duePerInterval = new long[3];
        for (Hit h : everySample) duePerInterval[(int) (h.intendedNanos() / S)]++;
        List<AttackInterval> timeline = merged.intervals();
        for (int k = 0; k < 3; k++) {
            assertThat(timeline.get(k).scheduled()).isEqualTo((long) RATE);
            if (m.unsent() == 0) assertThat((double) duePerInterval[k]).isCloseTo(RATE, org.assertj.core.data.Percentage.withPercentage(1));
        }
        assertThat(timeline.stream().mapToLong(AttackInterval::sent).sum()).isEqualTo(m.requests());

        // one histogram of every sample gives the same percentiles
        Histogram one = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        for (Hit h : everySample) one.recordValue(Math.min(Math.max(0, h.latencyNanos()), AttackRecorder.HIGHEST_TRACKABLE_NANOS));
        assertThat(m.latencyMillis()).isEqualTo(LatencyMillis.of(one));
        assertThat(m.latencyHistogramNanos()).isEqualTo(one);

        // one recorder fed every sample reports the same counters, statuses, errors and durations
        AttackRecorder recorder = new AttackRecorder();
        for (Hit h : everySample) recorder.sent(h.index(), h.target(), h.intendedNanos(), h.sentNanos(), h.bytesOut());
        for (Hit h : everySample)
            recorder.record(h, Attack.CUT_OFF_ERROR.equals(h.error()) ? Long.MIN_VALUE : h.intendedNanos() + h.latencyNanos());
        AttackResult ref = recorder.result(m.description(), new SendLoop.Outcome(m.requests(), m.unsent(), m.lateSends(),
                m.maxLateNanos(), 0, false), settings.lateThresholdNanos(), 0, Attack.CUT_OFF_ERROR, InstrumentHealth.Measured.none(2), 0);
        assertThat(m.statusCodes()).isEqualTo(ref.statusCodes()).containsKeys(200, 503);
        assertThat(m.errors()).isEqualTo(ref.errors());
        assertThat(m.serviceTimeMillis()).isEqualTo(ref.serviceTimeMillis());
        assertThat(m.latencyMillis()).isEqualTo(ref.latencyMillis());
        assertThat(List.of(m.requests(), m.successes(), m.bytesIn(), m.bytesOut(), m.attackNanos(), m.waitNanos(), m.totalNanos()))
                .isEqualTo(List.of(ref.requests(), ref.successes(), ref.bytesIn(), ref.bytesOut(), ref.attackNanos(), ref.waitNanos(), ref.totalNanos()));
        assertThat(m.ratePerSecond()).isEqualTo(ref.ratePerSecond());
        assertThat(m.throughputPerSecond()).isEqualTo(ref.throughputPerSecond());
        // late sends: the shards' sum, the worst of them
        assertThat(m.lateSends()).isEqualTo(records.stream().mapToLong(ShardRecord::lateSends).sum());
        assertThat(m.maxLateNanos()).isEqualTo(records.stream().mapToLong(ShardRecord::maxLateNanos).max().orElseThrow());

        // one timeline fed every sample has the same per-interval rows
        AttackTimeline single = new AttackTimeline(schedule, settings.intervalNanos());
        everySample.forEach(single::onHit);
        assertThat(timeline).isEqualTo(single.intervals());
    }

    /**
     * Ctrl-C (the hook's {@link Attack#stop}) on a shard still waiting for its barrier: it waited on for the barrier
     * while the hook's grace ran out, then the JVM exited without a report, leaving its ready mark behind.
     */
    @Test
    void stop_whileWaitingAtTheBarrier_endsTheWaitAtOnce_nothingMeasured_noStartNoMarkLeft(@TempDir Path dir) throws Exception {
        Path barrier = dir.resolve("start-at");
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))),
                new dev.blocklab.workload.Arrival.Open(new Pacer.Constant(20), S)).withWarmupNanos(0);
        Attack attack = new Attack(settings, new Shard(0, 2),
                () -> dev.blocklab.shard.StartAt.parse("@" + barrier, java.time.Clock.systemUTC(), 120_000));
        java.util.concurrent.CompletableFuture<AttackResult> run =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> attack.run(Progress.NONE, AttackListener.NONE));
        long deadline = System.nanoTime() + 60 * S;
        while (dev.blocklab.shard.StartAt.readyCount(barrier) == 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(dev.blocklab.shard.StartAt.readyCount(barrier)).as("waiting at the barrier").isEqualTo(1);
        attack.stop();
        AttackResult r = run.get(30, java.util.concurrent.TimeUnit.SECONDS);   // the barrier allows 120 s
        assertThat(r.stopped()).isTrue();
        assertThat(r.measuredNothing()).isTrue();
        assertThat(attack.startedAt()).as("no common start was read").isNull();
        assertThat(dev.blocklab.shard.StartAt.readyCount(barrier)).as("its ready mark removed").isZero();
    }

    private static String url(String path) { return "http://127.0.0.1:" + server.port() + path; }
}
