package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hardening cases of "Commands and files": each bad input gives one line naming the problem (or its limit)
 * and exit code 2, or a bounded, correct result.
 */
class BadInputTest {
    @TempDir Path dir;

    /** Exit 2 and one line on stderr (plus picocli's "Try --help" line for a flag it rejected itself). */
    private static void assertOneLine(Cli.Run o, String... mentions) {
        assertThat(o.exit()).as(o.err()).isEqualTo(Main.EXIT_USAGE);
        String first = o.err().lines().findFirst().orElse("");
        assertThat(first).startsWith("blocklab: ").contains(mentions);
        assertThat(o.err().lines().filter(l -> !l.startsWith("Try 'blocklab")).count()).as(o.err()).isEqualTo(1);
        assertThat(o.err()).doesNotContain("\tat ", "Exception");
    }

    private Path workload(String steps) throws IOException {
        return Files.writeString(dir.resolve("w" + System.nanoTime() + ".yaml"), "arrival: {batch: 2}\nsteps:\n" + steps);
    }

    private Cli.Run runWorkload(Path file, String model) {
        return Cli.run("run", "--workload", file.toString(), "--model", model, "--time-scale", "100", "--repeats", "1",
                "--warmups", "0", "--quiet", "--format", "json", "--save", dir.resolve("r.jsonl").toString());
    }

    @Test void calibrate_withAnAttacksOption_isRefused_notIgnored() {
        Cli.Run rate = Cli.run("attack", "--calibrate", "--rate", "2000/s");
        assertOneLine(rate, "--calibrate");
        assertThat(rate.err()).contains("--rate is for an attack of a URL (with --calibrate: --client, --max-connections, --quiet, --verbose)");
        assertOneLine(Cli.run("attack", "--calibrate", "--duration", "5s"), "--duration is for an attack of a URL");
    }

    /** One file given to two output flags: the HTML page replaced the saved results (run said "saved" for both). */
    @Test void oneFileForTwoOutputs_isRefusedBeforeAnyWork_andKeepsTheFile() throws IOException {
        Path same = Files.writeString(dir.resolve("same.jsonl"), "{\"kind\":\"earlier\"}\n");
        assertOneLine(Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--time-scale", "100", "--repeats", "1",
                "--save", same.toString(), "--html", dir.resolve(".").resolve("same.jsonl").toString()), "--html", "is also --save's file");
        assertOneLine(Cli.run("attack", "http://127.0.0.1:1/", "--duration", "1s", "--save", same.toString(), "--hlog", same.toString()),
                "--hlog " + same + " is also --save's file");
        assertOneLine(Cli.run("attack", "http://127.0.0.1:1/", "--duration", "1s", "--hlog", same.toString(), "--responses", same.toString()),
                "--responses " + same + " is also --hlog's file");
        assertOneLine(Cli.run("report", same.toString(), "--out", same.toString()), "--out " + same + " is one of the files read");
        assertThat(Files.readString(same)).isEqualTo("{\"kind\":\"earlier\"}\n");
        assertThat(dir.resolve("same.jsonl.previous")).doesNotExist();
    }

    @Test void attackBody_missingFile_isOneLine() {
        assertOneLine(Cli.run("attack", "http://127.0.0.1:1/", "--body", "@/nonexistent", "--duration", "1s"),
                "--body", "/nonexistent");
    }

    @Test void attackBody_atFile_isReadByAttack_notExpandedByPicocli() throws IOException {
        Path body = Files.writeString(dir.resolve("req.json"), "{\"a\": 1}");
        var command = new AttackCommand();
        new picocli.CommandLine(command).setExpandAtFiles(false)
                .parseArgs("http://127.0.0.1:1/", "--method", "POST", "--body", "@" + body);
        assertThat(new String(command.settings().targets().getFirst().body())).isEqualTo("{\"a\": 1}");
        // and through Main: the @ argument reaches the option instead of being read as an argument file
        assertOneLine(Cli.run("attack", "http://127.0.0.1:1/", "--body", "@" + dir.resolve("missing.json"), "--duration", "1s"),
                "--body", "missing.json");
    }

    @Test void fileErrors_giveTheReason_notThePathAgain() throws IOException {
        Path missing = dir.resolve("nope.txt");
        Cli.Run targets = Cli.run("attack", "--targets", missing.toString(), "--duration", "1s");
        assertOneLine(targets, "--targets");
        assertThat(targets.err().lines().findFirst()).hasValue("blocklab: --targets: cannot read " + missing + ": no such file");
        Path aFile = Files.writeString(dir.resolve("plain.txt"), "x");
        Cli.Run save = runWorkload(workload("  - call: a\n    latency: 1ms\n    returns: 1\n"), "virtual");
        assertThat(save.exit()).as(save.err()).isZero();
        Cli.Run report = Cli.run("report", dir.resolve("r.jsonl").toString(), "--out", aFile.resolve("r.txt").toString());
        assertOneLine(report, "r.txt");
        assertThat(report.err().lines().findFirst()).hasValue("blocklab: cannot write " + aFile.resolve("r.txt") + ": " + aFile + " already exists");
    }

    @Test void attackResponses_unwritable_namesResponses_evenGivenAsOutput() {
        for (String flag : new String[]{"--responses", "--output"}) {
            Cli.Run o = Cli.run("attack", "http://127.0.0.1:1/", flag, dir.toString(), "--duration", "1s");
            assertOneLine(o, "--responses");
            assertThat(o.err().lines().findFirst()).hasValue("blocklab: --responses: cannot write " + dir + ": is a directory");
        }
    }

    @Test void html_unwritable_failsBeforeAnyWork() throws IOException {
        Path save = dir.resolve("never.jsonl");
        Path aFile = Files.writeString(dir.resolve("plain.txt"), "x");
        String[][] commands = {
                {"run", "--workload", "hundred-calls", "--model", "virtual", "--save", save.toString()},
                {"reproduce", "--save", save.toString()},
                {"capacity", "--workload", "hundred-calls", "--entry", "virtual", "--save", save.toString()},
                {"advise", "--workload", "hundred-calls", "--entry", "virtual", "--save", save.toString()},
                {"attack", "http://127.0.0.1:1/", "--duration", "10s", "--save", save.toString()}};
        for (String[] command : commands) {
            List<String> args = new ArrayList<>(List.of(command));
            args.addAll(List.of("--html", dir.toString()));
            long start = System.nanoTime();
            Cli.Run o = Cli.run(args.toArray(String[]::new));
            assertOneLine(o, "--html");
            assertThat(o.err().lines().findFirst()).as(command[0]).hasValue("blocklab: --html: cannot write " + dir + ": is a directory");
            assertThat(save).as(command[0] + " stopped before opening --save").doesNotExist();
            assertThat(System.nanoTime() - start).as(command[0] + " did no work").isLessThan(5_000_000_000L);
        }
        Cli.Run underAFile = Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--save", save.toString(),
                "--html", aFile.resolve("page.html").toString());
        assertOneLine(underAFile, "--html", "page.html", "already exists");
        assertThat(save).doesNotExist();
    }

    @Test void writableCheck_leavesNoFileBehind_andAnExistingOneAsItWas() throws IOException {
        Path page = dir.resolve("sub/page.html");
        Flags.writable("--html", page);
        assertThat(page).doesNotExist();
        assertThat(page.getParent()).isDirectory();
        Path existing = Files.writeString(dir.resolve("old.html"), "old page");
        Flags.writable("--html", existing);
        assertThat(existing).hasContent("old page");
    }

    @Test void aDirectoryWhereAFileIsExpected_isSaidToBeOne() {
        Cli.Run run = Cli.run("run", "--workload", dir.toString(), "--model", "virtual", "--save", dir.resolve("s.jsonl").toString());
        assertOneLine(run, "is a directory");
        assertThat(run.err()).startsWith("blocklab: workload file '" + dir + "' is a directory\n");
        Cli.Run report = Cli.run("report", dir.toString());
        assertOneLine(report, "is a directory");
        assertThat(report.err()).startsWith("blocklab: report: " + dir + " is a directory\n");
        Cli.Run body = Cli.run("attack", "http://127.0.0.1:1/", "--body", "@" + dir, "--duration", "1s");
        assertOneLine(body, "--body");
        assertThat(body.err()).startsWith("blocklab: --body: cannot read " + dir + ": is a directory\n");
    }

    @Test void attackDuration_beyondAWeek_namesTheLimit() {
        assertOneLine(Cli.run("attack", "http://127.0.0.1:1/", "--duration", "999999999h"), "--duration", "168h");
    }

    @Test void attackRate_beyondAMillionASecond_namesTheLimit() {
        assertOneLine(Cli.run("attack", "http://127.0.0.1:1/", "--rate", "1000000000000/s", "--duration", "1s"),
                "--rate", "1000000/s");
    }

    @Test void workloadLatency_beyondAWeek_namesTheLimit() throws IOException {
        assertOneLine(runWorkload(workload("  - call: a\n    latency: 99999999999999h\n    returns: 1\n"), "virtual"),
                "168h");
    }

    @Test void cpuSize_beyondItsMaximum_namesTheLimit() throws IOException {
        assertOneLine(runWorkload(workload("  - cpu: c\n    kind: sort\n    size: 2147483647\n"), "virtual"),
                "at most 16777216");
    }

    @Test void forkJoinBeyondItsParallelism_namesTheLimit() throws IOException {
        assertOneLine(runWorkload(workload("  - call: a\n    latency: 1ms\n    returns: 1\n"), "forkjoin:40000"),
                "forkjoin:40000", "at most 32767");
    }

    @Test void yamlAlias_isRejectedWithItsPlace() throws IOException {
        Path file = Files.writeString(dir.resolve("alias.yaml"), """
                arrival: {batch: 2}
                steps:
                  - call: a
                    latency: &lat 10ms
                    returns: 1
                  - call: b
                    latency: *lat
                    returns: 2
                """);
        assertOneLine(runWorkload(file, "virtual"), "alias.yaml:7", "alias");
    }

    @Test void sumOverflow_failsTheRequest_insteadOfWrapping() throws IOException {
        Path file = workload("""
                  - call: a
                    latency: 1ms
                    returns: 9223372036854775807
                  - call: b
                    latency: 1ms
                    returns: 9223372036854775807
                  - combine: total
                    inputs: [a, b]
                    sum: 0
                """);
        Cli.Run o = runWorkload(file, "virtual");
        assertThat(o.out()).as(o.err()).doesNotContain("\"answer\" : -2", "\"answer\":-2");
        assertThat(o.out() + o.err()).contains("overflows");
    }

    @Test void sequential_honoursTimeout() throws IOException {
        // two requests of one 1 s call each (a fixed latency), in real time, each cut at 100 ms: both fail with the
        // timeout (without the cut each would answer after 1 s); counted, not timed, so a busy machine cannot flake it
        Path file = Files.writeString(dir.resolve("slow.yaml"), "arrival: {batch: 2}\nsteps:\n  - call: a\n    latency: 1s\n    returns: 1\n");
        Cli.Run o = Cli.run("run", "--workload", file.toString(), "--model", "sequential", "--timeout", "100ms",
                "--repeats", "1", "--warmups", "0", "--quiet", "--format", "json", "--save", dir.resolve("s.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).as("each request cut at its timeout")
                .contains("sequential: 2 x timeout: request timed out after 100ms");
    }

    @Test void aTimeoutTheScaleShrinksToNothing_isRefused() {
        // 5 ns at delays / 10 rounded to 0: a deadline armed with no time, its timer at an arbitrary delay
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--timeout", "5ns", "--time-scale", "10");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("--timeout 5ns divided by --time-scale 10 is under a nanosecond");
    }

    @Test void pgAsyncClient_isInRunsHelp_andABadValueIsOneLine() {
        assertThat(Cli.run("run", "--help").out()).contains("--pg-async-client").contains("vertx").contains("r2dbc");
        assertOneLine(Cli.run("run", "--workload", "examples/slow-query.yaml", "--model", "virtual", "--backend", "postgres",
                "--pg-async-client", "jdbc"), "--pg-async-client must be vertx or r2dbc, got 'jdbc'");
        assertOneLine(Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--pg-async-client", "r2dbc"),
                "--pg-async-client chooses a PostgreSQL client: it needs --backend postgres or --postgres-url");
    }
}
