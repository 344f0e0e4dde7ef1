package dev.blocklab.cli;

import dev.blocklab.attack.TrivialServer;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** attack --shard / --start-at, report --merge in every format, and k8s-job, through Main.execute on 127.0.0.1. */
class ShardCommandsTest {
    private static TrivialServer server;

    @BeforeAll static void start() { server = TrivialServer.start(0, 1); }

    @AfterAll static void stop() { server.close(); }


    private static void assertUsage(Cli.Run r, String word) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().filter(l -> l.startsWith("blocklab: ")).toList()).hasSize(1).first().asString().contains(word);
    }

    /** Two shards of one attack from one start, each in its own thread through the CLI; returns their files. */
    private static List<Path> twoShards(Path dir, String rate, boolean hlog) throws Exception {
        String url = "http://127.0.0.1:" + server.port() + "/";
        // both CLIs load their classes before the start: 1.2 s was too little at load 16 on 2 cores (the schedule had ended)
        String start = Instant.now().plusMillis(4000).toString();
        List<Path> files = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<Cli.Run>> runs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Path f = dir.resolve("shard-" + i + (hlog ? ".hlog" : ".jsonl"));
                files.add(f);
                String[] args = {"attack", url, "--rate", rate, "--duration", "1s", "--warmup", "200ms", "--quiet", "--shard", i + "/2",
                        "--start-at", start, hlog ? "--hlog" : "--save", f.toString()};
                runs.add(pool.submit(() -> Cli.run(args)));
            }
            for (Future<Cli.Run> r : runs) assertThat(r.get().exit()).as(r.get().err()).isZero();
        }
        return files;
    }

    @Test
    void reportMerge_everyFormat_fromSavesAndFromHlogs(@TempDir Path dir) throws Exception {
        List<Path> saves = twoShards(dir, "100/s", false);
        for (Path f : saves) {
            assertThat(Files.readString(f)).contains("\"kind\":\"attack-shard\"");
            assertThat(dev.blocklab.report.ResultsFile.read(f)).as("a shard's save reads back as its one result, the record aside")
                    .singleElement().satisfies(r -> assertThat(r.description()).doesNotContain("recovered"));
        }
        Cli.Run json = Cli.run("report", "--merge", "--format", "json", saves.get(0).toString(), saves.get(1).toString());
        assertThat(json.exit()).as(json.err()).isZero();
        // the merged figures as numbers, as attack --format json gives them (they were only a table's text cells)
        var merged = dev.blocklab.report.Jsons.mapper().readTree(json.out());
        long sent = 0;
        for (Path f : saves) sent += dev.blocklab.report.Jsons.mapper().readTree(Files.readString(f).lines()
                .filter(l -> l.contains("\"kind\":\"attack-shard\"")).findFirst().orElseThrow()).get("requests").asLong();
        assertThat(merged.get("requests").asLong()).as("the shards' requests summed").isEqualTo(sent).isPositive();
        assertThat(merged.at("/latencyMillis/p99").isNumber()).isTrue();
        assertThat(merged.get("successRatio").asDouble()).isBetween(0.0, 1.0);
        assertThat(merged.at("/merge/shardsMerged").asInt()).isEqualTo(2);
        assertThat(merged.at("/merge/complete").asBoolean()).isTrue();
        assertThat(Cli.run("report", "--merge", dir.toString()).out()).as("a directory stands for its .jsonl files")
                .contains("Requests").contains("Shards").contains("0/2").contains("1/2");
        assertThat(Cli.run("report", "--merge", "--format", "csv", saves.get(0).toString(), saves.get(1).toString()).out()).contains("late sends");
        assertThat(Cli.run("report", "--merge", "--format", "hdr", saves.get(0).toString(), saves.get(1).toString()).out())
                .contains("Value     Percentile TotalCount");
        Path html = dir.resolve("m.html");
        Cli.Run page = Cli.run("report", "--merge", "--format", "html", "--out", html.toString(), saves.get(0).toString(), saves.get(1).toString());
        assertThat(page.exit()).isZero();
        assertThat(page.err()).contains("report saved to " + html);
        assertThat(Files.readString(html)).contains("<svg");
        Cli.Run quiet = Cli.run("report", "--merge", "--quiet", "--format", "html", "--out", html.toString(), saves.get(0).toString(), saves.get(1).toString());
        assertThat(quiet.err()).as("--quiet: no closing line").doesNotContain("saved to");

        // a missing shard is named, in the report and on stderr
        Cli.Run one = Cli.run("report", "--merge", saves.get(0).toString());
        assertThat(one.exit()).as("an incomplete merge is not a success").isEqualTo(1);
        assertThat(one.out()).contains("INCOMPLETE").contains("shard 1/2 is missing");
        assertThat(one.err()).contains("blocklab: INCOMPLETE: shard 1/2 is missing");
        var oneJson = dev.blocklab.report.Jsons.mapper().readTree(Cli.run("report", "--merge", "--format", "json", saves.get(0).toString()).out());
        assertThat(oneJson.at("/merge/complete").asBoolean()).as("a saved JSON says it is incomplete").isFalse();
        assertThat(oneJson.at("/merge/problems/0").asText()).contains("shard 1/2 is missing");

        // the same shards' HdrHistogram logs carry the same records
        Path hdir = Files.createDirectories(dir.resolve("h"));
        List<Path> hlogs = twoShards(hdir, "100/s", true);
        assertThat(Files.readString(hlogs.getFirst())).contains("#[StartTime:").contains("#blocklab-shard {");
        Cli.Run fromHlogs = Cli.run("report", "--merge", "--format", "json", hlogs.get(0).toString(), hlogs.get(1).toString());
        assertThat(fromHlogs.exit()).as(fromHlogs.err()).isZero();

        // shards of different attacks are refused with one line
        Path other = dir.resolve("o");
        Files.createDirectories(other);
        List<Path> others = twoShards(other, "60/s", false);
        assertUsage(Cli.run("report", "--merge", saves.get(0).toString(), others.get(1).toString()), "is not a shard of the same attack");
    }

    @Test
    void attackWorkers_twoChildJvms_mergedReportAndAWorkerLineEach_noReadyMarksLeft() throws Exception {
        java.util.Set<Path> before = WorkersDirs.now();
        Cli.Run r = Cli.run("attack", "http://127.0.0.1:" + server.port() + "/", "--rate", "40/s", "--duration", "1s", "--warmup", "0",
                "--workers", "2", "--quiet");
        java.util.Set<Path> made = WorkersDirs.madeSince(before);
        try {
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("Requests").contains("Workers [shard, requests").containsPattern("(?m)^  0/2, \\d+, ")
                    .containsPattern("(?m)^  1/2, \\d+, ");
            assertThat(r.err()).doesNotContain("INCOMPLETE");
            assertThat(made).hasSize(1);
            try (var files = Files.list(made.iterator().next())) {   // each worker removed its barrier mark once released
                assertThat(files.map(p -> p.getFileName().toString()).sorted())
                        .contains("start-at", "shard-0.jsonl", "shard-1.jsonl").noneMatch(n -> n.contains(".ready."));
            }
        } finally {
            WorkersDirs.delete(made);
        }
    }

    @Test
    void attackWorkers_progress_saysWhereTheCommonScheduleIs() {
        // it said "workers: 0 of 2 done" every 5 s from the start to the end, however long the attack
        Instant start = Instant.parse("2026-11-23T17:30:00Z");
        long minute = 60_000_000_000L;
        assertThat(AttackWorkers.waitingLine(0, 2, start, minute, start.minusMillis(2_500)))
                .isEqualTo("workers: 0 of 2 done; warm-up, the measured schedule starts in 3s");
        assertThat(AttackWorkers.waitingLine(0, 2, start, minute, start)).isEqualTo("workers: 0 of 2 done; attack 0s of 60s");
        assertThat(AttackWorkers.waitingLine(0, 2, start, minute, start.plusMillis(12_700)))
                .isEqualTo("workers: 0 of 2 done; attack 12s of 60s");
        assertThat(AttackWorkers.waitingLine(1, 2, start, minute, start.plusSeconds(61)))
                .isEqualTo("workers: 1 of 2 done; the 60s schedule is over, waiting for the last responses and the reports");
        assertThat(AttackWorkers.waitingLine(1, 2, null, minute, start)).isEqualTo("workers: 1 of 2 done");
    }

    @Test
    void attackShard_badInput_oneLine() {
        String ok = "http://127.0.0.1:" + server.port() + "/";
        assertUsage(Cli.run("attack", ok, "--shard", "2/2", "--start-at", "2026-11-23T18:00:00Z"), "--shard");
        assertUsage(Cli.run("attack", ok, "--shard", "0/2"), "--start-at");
        assertUsage(Cli.run("attack", ok, "--shard", "0/2", "--start-at", "tomorrow"), "--start-at");
        assertUsage(Cli.run("attack", ok, "--users", "3", "--shard", "0/2", "--start-at", "1795455000000"), "--users");
        assertUsage(Cli.run("attack", ok, "--workers", "2", "--shard", "0/2"), "--shard");
        assertUsage(Cli.run("report", "--merge", "--format", "xml", "x.jsonl"), "--format");
    }

    @Test
    void attackShard_aBarrierThatHoldsNoUsableStart_withHlog_oneLineNamingIt(@TempDir Path dir) throws Exception {
        // with --hlog, the log's base time was asked of a start never read: a NullPointerException's message, exit 1
        String ok = "http://127.0.0.1:" + server.port() + "/";
        Path barrier = dir.resolve("start-at");
        Files.writeString(barrier, "soon");
        assertUsage(Cli.run("attack", ok, "--rate", "10/s", "--duration", "1s", "--shard", "0/2", "--start-at", "@" + barrier,
                "--hlog", dir.resolve("s.hlog").toString()), "barrier " + barrier + " holds 'soon', not an ISO instant");
        Files.writeString(barrier, "2020-01-01T00:00:00Z");
        assertUsage(Cli.run("attack", ok, "--rate", "10/s", "--duration", "1s", "--shard", "0/2", "--start-at", "@" + barrier,
                "--hlog", dir.resolve("s.hlog").toString()), "nothing would be sent");
    }

    @Test
    void merge_ofADirectoryWithoutShardFiles_namesTheDirectory(@org.junit.jupiter.api.io.TempDir Path empty) {
        // it said "no shard records in []"
        assertUsage(Cli.run("report", "--merge", empty.toString()), empty + " holds no .jsonl file");
    }

    @Test
    void k8sJob_writesAnIndexedJobTheModelReadsBack_andChecksTheAttack(@TempDir Path dir) {
        Path out = dir.resolve("attack.yaml"), merge = dir.resolve("merge.yaml");
        Cli.Run r = Cli.run("k8s-job", "--workers", "3", "--image", "registry.example/blocklab:0.1.0", "--namespace", "perf",
                "--volume-claim", "results", "--out", out.toString(), "--merge-job", merge.toString(), "--start-at", "2099-11-23T18:00:00Z",
                "--", "http://target:8080/", "--rate", "3000/s", "--duration", "30s");
        assertThat(r.exit()).as(r.err()).isZero();
        KubernetesSerialization s = new KubernetesSerialization();
        Object back = s.unmarshal(new ByteArrayInputStream(read(out).getBytes(StandardCharsets.UTF_8)));
        Job job = (Job) (back instanceof List<?> l ? l.getFirst() : back);
        assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(job.getSpec().getParallelism()).isEqualTo(3);
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
                .contains("--shard", "$(JOB_COMPLETION_INDEX)/3", "--start-at", "2099-11-23T18:00:00Z", "--save", "/results/blocklab-attack/shard-$(JOB_COMPLETION_INDEX).jsonl");
        assertThat(read(merge)).contains("blocklab-attack-merge").contains("--merge");
        assertThat(r.err()).contains("kubectl wait -n perf --for=condition=complete job/blocklab-attack")
                .contains("kubectl apply -f " + merge).doesNotContain("MERGE-JOB");
        assertThat(read(out)).contains("# merge: ").contains("kubectl apply -f " + merge);

        assertUsage(Cli.run("k8s-job", "--workers", "3", "--image", "i", "--", "http://target:8080/", "--rate", "fast"), "--rate");
        assertUsage(Cli.run("k8s-job", "--workers", "3", "--image", "i", "--", "http://target:8080/", "--shard", "0/3"), "--shard");
        assertUsage(Cli.run("k8s-job", "--workers", "3", "--image", "i", "--cpu", "lots", "--", "http://target:8080/"), "lots");
    }

    @Test
    void k8sJob_mergeJobWithoutVolumeClaim_refusedBeforeAnyManifestIsWritten(@TempDir Path dir) {
        Path out = dir.resolve("attack.yaml"), merge = dir.resolve("merge.yaml");
        Cli.Run toStdout = Cli.run("k8s-job", "--workers", "2", "--image", "i", "--merge-job", merge.toString(), "--", "http://target:8080/");
        assertUsage(toStdout, "--merge-job needs --volume-claim");
        assertThat(toStdout.out()).isEmpty();
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--out", out.toString(), "--merge-job", merge.toString(),
                "--", "http://target:8080/"), "--merge-job needs --volume-claim");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--volume-claim", "results", "--out", out.toString(),
                "--merge-job", out.toString(), "--", "http://target:8080/"), "--merge-job");
        assertThat(out).doesNotExist();
        assertThat(merge).doesNotExist();
    }

    @Test
    void k8sJob_manifestsThatCannotWork_refusedInOneLine() {
        String url = "http://target:8080/";
        Cli.Run ended = Cli.run("k8s-job", "--workers", "2", "--image", "i", "--start-at", "2020-01-01T00:00:00Z", "--", url, "--duration", "30s");
        assertUsage(ended, "--start-at 2020-01-01T00:00:00Z: the schedule it starts (30s) ended");
        assertThat(ended.out()).isEmpty();
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--namespace", "NS!", "--", url), "--namespace: 'NS!'");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "has space", "--", url), "--image: 'has space'");
        // each said "is set for each pod by k8s-job", which k8s-job does only for --shard and --start-at
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--", url, "--shard", "0/2"), "--shard is set for each pod by k8s-job");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--", url, "--workers", "4"), "--workers would start child JVMs in every pod");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--", url, "--save", "s.jsonl"), "--save would write inside the pod");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--", "--calibrate"), "--calibrate measures one attacker's ceiling");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--", url, "--responses", "r.csv"), "--responses would write inside the pod");
        assertUsage(Cli.run("k8s-job", "--workers", "2", "--image", "i", "--", url, "--html=r.html"), "--html would write inside the pod");
        // a start in the past within the schedule is kept, as attack keeps it: the shards send what fell due at once
        Cli.Run late = Cli.run("k8s-job", "--workers", "2", "--image", "i", "--start-at", Instant.now().minusSeconds(5).toString(),
                "--", url, "--duration", "1h");
        assertThat(late.exit()).as(late.err()).isZero();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
