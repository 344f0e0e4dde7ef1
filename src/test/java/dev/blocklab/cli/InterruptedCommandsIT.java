package dev.blocklab.cli;

import dev.blocklab.attack.TrivialServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Commands killed or interrupted in a child JVM (the packaged jar): what they leave on disk and say. */
class InterruptedCommandsIT {
    @TempDir Path dir;

    private static Process blocklab(Path stderr, String... args) throws IOException {
        String jar = System.getProperty("blocklab.jar", "target/blocklab.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-jar", jar));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile()).start();
    }

    /**
     * Runs what follows with SIGINT's default action: a child inherits an ignored SIGINT (a test run started as a
     * background job, {@code mvn verify &}, ignores it), and a JVM that starts with it ignored never handles it, so
     * a Ctrl-C test would wait in vain (GNU env, coreutils 8.31 and later).
     */
    private static final List<String> SIGINT_HANDLED = List.of("env", "--default-signal=INT");

    private static void awaitLines(Path file, String kind, int atLeast, long timeoutMillis) throws Exception {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            if (Files.exists(file) && Files.readAllLines(file).stream().filter(l -> l.contains(kind)).count() >= atLeast) return;
            Thread.sleep(100);
        }
    }

    @Test @Timeout(120) void attackKilledWithSigkill_leavesItsSaveFile_withTheIntervalsMeasured() throws Exception {
        try (TrivialServer server = TrivialServer.start(0, 1)) {
            Path save = dir.resolve("attack.jsonl");
            Process attack = blocklab(dir.resolve("attack.err"), "attack", "http://127.0.0.1:" + server.port() + "/",
                    "--rate", "50/s", "--duration", "60s", "--quiet", "--save", save.toString());
            awaitLines(save, "attack-interval-live", 2, 90_000);   // a child JVM started on a loaded machine took over 30 s
            attack.destroyForcibly();   // SIGKILL: no shutdown hook runs
            assertThat(attack.waitFor(10, TimeUnit.SECONDS)).isTrue();
            List<String> lines = Files.readAllLines(save);
            assertThat(lines).as("intervals streamed before the kill").hasSizeGreaterThanOrEqualTo(2)
                    .allMatch(l -> l.contains("attack-interval-live"));
            Cli.Run report = Cli.run("report", "--format", "csv", save.toString());
            assertThat(report.exit()).as(report.err()).isZero();
            assertThat(report.out()).contains("Rows of kind 'attack-interval-live', as streamed");
            assertThat(report.out().lines().filter(l -> l.matches("^\"[^\"]*\",\\d+,\\d+,50,.*"))).as("an interval a row: title, start, end, 50 scheduled").isNotEmpty();
        }
    }

    @Test @Timeout(120) void attackWithWorkersStoppedWithSigterm_mergesAndReportsWhatTheWorkersMeasured() throws Exception {
        try (TrivialServer server = TrivialServer.start(0, 1)) {
            // the parent alone gets the signal (as from a process manager): it stops its workers and merges their shares
            String jar = Path.of(System.getProperty("blocklab.jar", "target/blocklab.jar")).toAbsolutePath().toString();
            String java = ProcessHandle.current().info().command().orElse("java");
            Path out = dir.resolve("workers.out"), err = dir.resolve("workers.err"), save = dir.resolve("merged.jsonl");
            Process attack = new ProcessBuilder(java, "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-jar", jar,
                    "attack", "http://127.0.0.1:" + server.port() + "/", "--rate", "50/s", "--duration", "60s", "--warmup", "0",
                    "--workers", "2", "--save", save.toString())
                    .directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            long deadline = System.currentTimeMillis() + 60_000;
            Path shard = null;
            while (System.currentTimeMillis() < deadline && shard == null) {
                try (var dirs = Files.list(dir.resolve("results"))) {
                    shard = dirs.map(d -> d.resolve("shard-1.jsonl")).filter(Files::exists).findFirst().orElse(null);
                } catch (IOException notYet) {
                    // results/ is made by the parent
                }
                Thread.sleep(100);
            }
            assertThat(shard).as("a worker's save file").isNotNull();
            awaitLines(shard, "attack-interval-live", 2, 30_000);
            attack.destroy();   // SIGTERM to the parent only
            assertThat(attack.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String stdout = Files.readString(out, StandardCharsets.UTF_8), stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertThat(stderr).contains("workers: stopped; merging what the 2 workers measured before they stopped")
                    .doesNotContain("exited with code");
            assertThat(stdout).contains("(stopped early)").contains("Workers [shard, requests");
            assertThat(stdout.lines().filter(l -> l.matches("  [01]/2, [1-9]\\d*, .*"))).as("both shares, each with requests").hasSize(2);
            assertThat(Files.readAllLines(save)).anyMatch(l -> l.startsWith("{\"kind\":\"experiment-result\""));
        }
    }

    /**
     * SIGTERM while the workers start: the parent wrote the barrier anyway, said the schedule started, then failed to
     * merge (`--merge: cannot read .../shard-0.jsonl`); a worker already at the barrier waited on for it, past the
     * stop's grace, and left its ready mark.
     */
    @Test @Timeout(120) void attackWithWorkersStoppedWhileTheyStart_saysNothingWasMeasured_leavesNoReadyMark() throws Exception {
        try (TrivialServer server = TrivialServer.start(0, 1)) {
            String jar = Path.of(System.getProperty("blocklab.jar", "target/blocklab.jar")).toAbsolutePath().toString();
            String java = ProcessHandle.current().info().command().orElse("java");
            Path err = dir.resolve("workers.err");
            Process attack = new ProcessBuilder(java, "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-jar", jar,
                    "attack", "http://127.0.0.1:" + server.port() + "/", "--rate", "50/s", "--duration", "10s",
                    "--workers", "2", "--save", dir.resolve("merged.jsonl").toString())
                    .directory(dir.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
            long deadline = System.currentTimeMillis() + 60_000;
            Path workers = null;
            while (System.currentTimeMillis() < deadline && workers == null) {
                try (var dirs = Files.list(dir.resolve("results"))) {
                    workers = dirs.filter(d -> Files.exists(d.resolve("shard-1.log"))).findFirst().orElse(null);
                } catch (IOException notYet) {
                    // results/ is made by the parent
                }
                Thread.sleep(20);
            }
            assertThat(workers).as("the workers' directory").isNotNull();
            attack.destroy();   // SIGTERM to the parent, before the second worker's JVM can be up
            assertThat(attack.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertThat(stderr).contains("workers: stopped before the common start: nothing was measured")
                    .doesNotContain("the measured schedule starts at").doesNotContain("cannot read");
            Thread.sleep(2_000);   // the workers' own exits, after the parent's
            try (var files = Files.list(workers)) {
                assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".ready.") || n.equals("start-at"));
            }
            assertThat(dir.resolve("merged.jsonl")).doesNotExist();
        }
    }

    @Test @Timeout(120) void runInterrupted_saysWhatWasSaved() throws Exception {
        Path save = dir.resolve("run.jsonl"), err = dir.resolve("run.err");
        // two requests of 5 s: fixed:2 takes 5 s, sequential 10 s; SIGTERM once the first is saved
        Path workload = Files.writeString(dir.resolve("slow.yaml"), "arrival: {batch: 2}\nsteps:\n  - call: a\n    latency: 5s\n    returns: 1\n");
        Process run = blocklab(err, "run", "--workload", workload.toString(), "--model", "fixed:2", "--model", "sequential",
                "--repeats", "1", "--warmups", "0", "--save", save.toString());
        awaitLines(save, "\"run\"", 1, 60_000);
        run.destroy();   // SIGTERM, as Ctrl-C's SIGINT: shutdown hooks run
        assertThat(run.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        // the second model's part: what it completed before the signal (its second request is sent once the first
        // is answered, 5 s in), or nothing when none had; or, when the signal came before the second model began
        // (a loaded machine is slow to start it), the first model alone
        String savedTo = "saved to " + java.util.regex.Pattern.quote(save.toString());
        assertThat(stderr).containsPattern("blocklab: interrupted during sequential \\(2 of 2 models\\); finished 1 of 2 models: fixed:2; "
                + "(sequential stopped after [12] of 2 requests sent, its 1 completed kept|stopped during sequential's run 1/1 before any request completed); "
                + savedTo + "|blocklab: interrupted; finished 1 of 2 models: fixed:2; " + savedTo);
        // overall progress: the model, its share and the time left from its predicted wall time
        assertThat(stderr).containsPattern("model 1/2 fixed:2, \\d+ %, ~\\d+ s left");
    }

    @Test @Timeout(60) void runInterruptedBeforeAnyRequestCompleted_leavesNoEmptyFile() throws Exception {
        Path save = dir.resolve("run.jsonl"), err = dir.resolve("run.err");
        // one model of 20 s in real time, stopped before its first request completes: nothing measured, nothing saved
        Path workload = Files.writeString(dir.resolve("slow.yaml"), "arrival: {batch: 2}\nsteps:\n  - call: a\n    latency: 20s\n    returns: 1\n");
        Process run = blocklab(err, "run", "--workload", workload.toString(), "--model", "fixed:2",
                "--repeats", "1", "--warmups", "0", "--save", save.toString());
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline && !Files.readString(err, StandardCharsets.UTF_8).contains("model 1/1")) Thread.sleep(100);
        run.destroy();   // SIGTERM, as Ctrl-C's SIGINT: shutdown hooks run
        assertThat(run.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(err, StandardCharsets.UTF_8))
                .contains("blocklab: interrupted during fixed:2 (1 of 1 models); finished 0 of 1 models; stopped during fixed:2's "
                        + "run 1/1 before any request completed; nothing saved\n");
        assertThat(save).as("an empty file would make 'report results/*.jsonl' fail").doesNotExist();
    }

    @Test @Timeout(60) void runInterruptedDuringItsFirstModel_keepsTheRequestsThatCompleted() throws Exception {
        Path save = dir.resolve("run.jsonl"), err = dir.resolve("run.err");
        // 20 requests of 1 s on 2 threads, 10 s in real time: stopped once some have completed, they are saved and reported
        Path workload = Files.writeString(dir.resolve("slow.yaml"), "arrival: {batch: 20}\nsteps:\n  - call: a\n    latency: 1s\n    returns: 1\n");
        Process run = blocklab(err, "run", "--workload", workload.toString(), "--model", "fixed:2", "--model", "virtual",
                "--repeats", "1", "--warmups", "0", "--save", save.toString());
        long deadline = System.currentTimeMillis() + 30_000;
        while (System.currentTimeMillis() < deadline && !Files.readString(err, StandardCharsets.UTF_8).matches("(?s).*sent, [1-9]\\d* done.*"))
            Thread.sleep(100);
        run.destroy();   // SIGTERM, as Ctrl-C's SIGINT: shutdown hooks run
        assertThat(run.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(err, StandardCharsets.UTF_8)).containsPattern(
                "blocklab: interrupted during fixed:2 \\(1 of 2 models\\); finished 0 of 2 models; fixed:2 stopped after 20 of 20 requests "
                        + "sent, its ([2-9]|1[0-9]) completed kept; saved to " + java.util.regex.Pattern.quote(save.toString()));
        List<String> runs = Files.readAllLines(save).stream().filter(l -> l.startsWith("{\"kind\":\"run\"")).toList();
        assertThat(runs).hasSize(1);
        assertThat(runs.getFirst()).contains("\"interrupted\":{\"requestsSent\":20,\"requestsPlanned\":20}");
        Cli.Run report = Cli.run("report", save.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out()).contains("- (stopped early)").containsPattern("fixed:2: stopped before its end \\(20 of 20 requests sent, \\d+ completed\\)");
    }

    @Test @Timeout(150) void runOnPostgresInterruptedByATerminalsCtrlC_keepsTheServerUpUntilItsRequestsAreSaved() throws Exception {
        // A terminal's Ctrl-C signals the whole foreground process group, the servers the lab started included: PostgreSQL
        // stopped under the run ("terminating connection due to administrator command") and its requests in flight
        // failed into the saved result. The lab now starts its servers in a session of their own and stops them last.
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")), "needs setsid");
        Path save = dir.resolve("run.jsonl"), err = dir.resolve("run.err");
        String jar = System.getProperty("blocklab.jar", "target/blocklab.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        // another run's leftover (a JVM killed on this shared machine) is not this run's
        java.util.Set<Long> orphansBefore = orphanedPostgres();
        // setsid: the run leads a process group of its own, as a shell's foreground job does
        List<String> command = new ArrayList<>(SIGINT_HANDLED);
        command.addAll(List.of("/usr/bin/setsid", java, "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-jar", jar,
                "run", "--workload", "examples/slow-query.yaml", "--backend", "postgres", "--model", "virtual", "--requests", "2000",
                "--pool-timeout", "60s", "--warmups", "0", "--repeats", "1", "--save", save.toString()));
        Process run = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        // once some queries are done and many in flight: 2,000 of 100 ms through 10 connections take 20 s, each
        // allowed to wait that long for a connection (2 s into 400 of them, 4 s, left a loaded machine little room;
        // the progress line that says some are done comes every 5 s)
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline && !Files.readString(err, StandardCharsets.UTF_8).matches("(?s).*sent, [1-9]\\d* done.*"))
            Thread.sleep(100);
        assertThat(new ProcessBuilder("kill", "-INT", "--", "-" + run.pid()).start().waitFor()).as("SIGINT to the run's process group").isZero();
        assertThat(run.waitFor(40, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(stderr).contains("blocklab: interrupted during virtual (1 of 1 models)").doesNotContain("57P01").doesNotContain("Exception");
        String saved = Files.readAllLines(save).stream().filter(l -> l.startsWith("{\"kind\":\"run\"")).findFirst().orElseThrow();
        assertThat(saved).as("no request failed against a stopped server").contains("\"failures\":0");
        // and the server is stopped once the run is saved: no postgres of this run left (a loaded machine may take
        // a while to reap one that is ending; one left behind stays)
        java.util.Set<Long> left = new java.util.TreeSet<>();
        for (long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20); ; Thread.sleep(100)) {
            left.clear();
            left.addAll(orphanedPostgres());
            left.removeAll(orphansBefore);
            if (left.isEmpty() || System.nanoTime() > until) break;
        }
        assertThat(left).as("orphaned PostgreSQL servers of this run").isEmpty();
    }

    /** PostgreSQL servers whose parent has gone (re-parented to init): a run's server left behind, by pid. */
    private static java.util.Set<Long> orphanedPostgres() {
        try (var processes = ProcessHandle.allProcesses()) {
            return processes.filter(p -> p.info().commandLine().orElse("").contains("bin/postgres")
                    && p.info().commandLine().orElse("").contains(" -p ")).filter(p -> p.parent().isEmpty() || p.parent().get().pid() == 1)
                    .map(ProcessHandle::pid).collect(java.util.stream.Collectors.toSet());
        }
    }

    @Test @Timeout(90) void capacityInterrupted_keepsEveryRunMeasured_andReportShowsThem() throws Exception {
        Path save = dir.resolve("capacity.jsonl"), err = dir.resolve("capacity.err");
        // fixed:2 holding each request 100 ms (a ceiling of 20/s): each search doubles from 2/s past 20/s, then bisects,
        // 1 s a run; the same entry twice, so the summary must count, not look the name up
        Path workload = Files.writeString(dir.resolve("one-call.yaml"), "arrival: {batch: 2}\nsteps:\n  - call: a\n    latency: 100ms\n    returns: 1\n");
        Process capacity = blocklab(err, "capacity", "--workload", workload.toString(), "--entry", "fixed:2", "--entry", "fixed:2",
                "--slo", "p99<=300ms", "--start-rate", "2/s", "--repeats", "1", "--step", "1s", "--save", save.toString());
        awaitLines(save, "\"phase\":\"warm-up (discarded)\"", 2, 60_000);   // the second search has begun
        capacity.destroy();   // SIGTERM, as Ctrl-C's SIGINT: shutdown hooks run
        assertThat(capacity.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(stderr).contains("blocklab: interrupted during fixed:2 (2 of 2 entries); finished 1 of 2 entries: fixed:2; saved to " + save);
        long steps = Files.readAllLines(save).stream().filter(l -> l.startsWith("{\"kind\":\"capacity-step\"")).count();
        assertThat(steps).as("the first search's runs, its warm-up and at least 4 rates, and the second's warm-up").isGreaterThanOrEqualTo(6);
        Cli.Run report = Cli.run("report", "--format", "csv", save.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out().lines().filter(l -> l.contains("fixed:2")).count()).isEqualTo(steps);
    }

    @Test @Timeout(180) void reproduceInterruptedWithSigint_saysWhatFinishedAndWhereItIsSaved() throws Exception {
        Path save = dir.resolve("reproduce.jsonl"), err = dir.resolve("reproduce.err"), durations = dir.resolve("durations.properties");
        // task-graph ran before in 40 s at this scale: the progress line estimates from it
        Files.writeString(durations, "reproduce.task-graph.delays-2.simulated=40000000000\n");
        String jar = System.getProperty("blocklab.jar", "target/blocklab.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(SIGINT_HANDLED);
        command.addAll(List.of(java, "-Dblocklab.durations=" + durations, "--enable-preview", "--enable-native-access=ALL-UNNAMED",
                "-jar", jar, "reproduce", "--time-scale", "2", "--save", save.toString()));
        Process reproduce = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()).start();
        // delays / 2: task-graph's fifteen runs take tens of seconds; SIGINT (Ctrl-C) once three of its rows are saved
        awaitLines(save, "\"kind\":\"task-graph\"", 3, 90_000);
        assertThat(new ProcessBuilder("kill", "-INT", Long.toString(reproduce.pid())).start().waitFor()).isZero();
        // about a second on a quiet machine; generous for a loaded one (it once took over 20 s at load 20 on 2 cores)
        boolean ended = reproduce.waitFor(60, TimeUnit.SECONDS);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        if (!ended) reproduce.destroyForcibly();
        assertThat(ended).as("ended within 60 s of SIGINT; its stderr:\n" + stderr).isTrue();
        assertThat(stderr).containsPattern("blocklab: interrupted during task-graph \\(1 of 3 experiments\\); finished [01] of 3 experiments")
                .contains("saved to " + save + " (rebuild the report: blocklab report " + save + ")")
                .containsPattern("experiment 1/3 task-graph, \\d+ % of it, ~\\d+ s left in it");
        assertThat(Files.readAllLines(save).stream().filter(l -> l.contains("\"kind\":\"task-graph\"")).count()).as("rows streamed before the signal")
                .isGreaterThanOrEqualTo(3);
    }

    @Test @Timeout(120) void serveWithAuditStoppedWithSigint_exits1_whenItsFailIfHolds() throws Exception {
        Path out = dir.resolve("serve.out"), err = dir.resolve("serve.err");
        String jar = System.getProperty("blocklab.jar", "target/blocklab.jar");
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(SIGINT_HANDLED);
        command.addAll(List.of(javaCommand, "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-jar", jar, "serve",
                "--profile", "event-loop", "--port", "0", "--time-scale", "10", "--audit", "--fail-if", "findings>0"));
        Process serve = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            awaitLines(out, "listening on ", 1, 60_000);
            String url = Files.readAllLines(out).stream().filter(l -> l.startsWith("listening on ")).findFirst().orElseThrow()
                    .substring("listening on ".length()).trim();
            // a blocking endpoint on the event loop: a finding of the audit (by design here)
            try (var client = java.net.http.HttpClient.newHttpClient()) {
                for (int i = 0; i < 2; i++)
                    assertThat(client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url + "/sync-blocking")).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            }
            assertThat(new ProcessBuilder("kill", "-INT", Long.toString(serve.pid())).start().waitFor()).isZero();
            boolean ended = serve.waitFor(60, TimeUnit.SECONDS);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            assertThat(ended).as("ended within 60 s of SIGINT; its stderr:\n" + stderr).isTrue();
            // the signal's own exit code (130) would hide the condition from a CI gate
            assertThat(serve.exitValue()).as(stderr).isEqualTo(1);
            assertThat(stderr).contains("blocklab: fail-if findings>0: findings was");
            assertThat(Files.readString(out)).contains("blocking-on-event-loop");
        } finally {
            serve.destroyForcibly();
        }
    }

    @Test @Timeout(120) void runOutOfHeap_isABoundedResult_withTheRunSaved() throws Exception {
        // 40 requests each sorting 16 Mi ints (64 MiB) at once, in a JVM of 160 MiB of heap
        Path save = dir.resolve("oom.jsonl"), err = dir.resolve("oom.err"), out = dir.resolve("oom.out");
        Path workload = Files.writeString(dir.resolve("big.yaml"),
                "arrival: {batch: 40}\nsteps:\n  - cpu: c\n    kind: sort\n    size: 16777216\n");
        String jar = System.getProperty("blocklab.jar", "target/blocklab.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        Process run = new ProcessBuilder(java, "-Xmx160m", "--enable-preview", "--enable-native-access=ALL-UNNAMED", "-jar", jar,
                "run", "--workload", workload.toString(), "--model", "cached", "--time-scale", "100", "--repeats", "1",
                "--warmups", "0", "--quiet", "--save", save.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(run.waitFor(100, TimeUnit.SECONDS)).as("bounded").isTrue();
        String stderr = Files.readString(err, StandardCharsets.UTF_8), stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(stderr).as("no stack trace").doesNotContain("\tat ");
        if (run.exitValue() == 0) {
            // the requests that ran out of heap are counted as failures, the rest answered
            assertThat(stdout).contains("java.lang.OutOfMemoryError");
            assertThat(Files.readString(save)).contains("\"kind\":\"run\"");
        } else {
            assertThat(run.exitValue()).isEqualTo(2);
            assertThat(stderr.lines().filter(l -> l.startsWith("blocklab: ")).toList()).hasSize(1)
                    .first().asString().contains("out of memory", "saved to");
        }
    }
}
