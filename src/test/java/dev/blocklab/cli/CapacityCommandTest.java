package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code blocklab capacity} and {@code advise} end to end on a user's file: short real-time steps, generous bounds. */
class CapacityCommandTest {
    @TempDir Path dir;


    private Path workload() throws IOException {
        return Files.writeString(dir.resolve("one-call.yaml"), """
                name: one-call
                input: 1
                arrival: {batch: 10}
                steps:
                  - call: lookup
                    inputs: [input]
                    latency: 100ms
                    returns: 7
                """);
    }

    @Test
    void capacity_poolOfTwo_breaksPastItsCeiling_andSavesTheRows() throws IOException {
        // fixed:4 holding 100 ms a request: a ceiling of 40/s; at 80/s for 1 s a queue of 40 waits up to 1 s, past 400 ms
        Path save = dir.resolve("cap.jsonl");
        Cli.Run o = Cli.run("capacity", "--workload", workload().toString(), "--entry", "fixed:4", "--slo", "p99<=400ms",
                "--start-rate", "5/s", "--max-rate", "160/s", "--bisections", "1", "--repeats", "1", "--step", "1s",
                "--quiet", "--save", save.toString(), "--wide");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("Highest open rate meeting p99<=400ms (one-call)", "Knee curve", "fixed:4",
                "a long batch (10000 requests, a model of steady load) takes", "Reproduce: ./blocklab capacity --workload");
        String json = Files.readString(save);
        assertThat(json).contains("\"entry\":\"fixed:4\"", "\"predictedCeilingPerSecond\":40.0");
        double sustained = Double.parseDouble(json.replaceAll("(?s).*?\"sustainablePerSecond\":([0-9.]+).*", "$1"));
        double broken = Double.parseDouble(json.replaceAll("(?s).*?\"brokenPerSecond\":([0-9.]+).*", "$1"));
        assertThat(sustained).isBetween(5.0, 80.0);
        assertThat(broken).isGreaterThan(sustained).isLessThanOrEqualTo(160.0);
    }

    @Test
    void advise_plainWordsWithTheCommand() throws IOException {
        Cli.Run o = Cli.run("advise", "--workload", workload().toString(), "--entry", "virtual", "--slo", "p99<=500ms",
                "--start-rate", "5/s", "--max-rate", "10/s", "--bisections", "0", "--repeats", "1", "--step", "1s", "--quiet",
                "--save", dir.resolve("advise.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).startsWith("For " + dir.resolve("one-call.yaml") + ", use virtual: it kept p99<=500ms up to at least 10 requests a second")
                .contains("Reproduce: ./blocklab capacity --workload");
    }

    @Test
    void capacity_badInput_oneLineExit2() throws IOException {
        Cli.Run slo = Cli.run("capacity", "--workload", workload().toString(), "--entry", "virtual", "--slo", "p98<=1s");
        assertThat(slo.exit()).isEqualTo(2);
        assertThat(slo.err()).contains("'p98<=1s' is not of the form");
        Cli.Run entry = Cli.run("capacity", "--workload", workload().toString(), "--entry", "fixd:8");
        assertThat(entry.exit()).isEqualTo(2);
        assertThat(entry.err()).contains("unknown entry 'fixd:8'");
        Cli.Run variant = Cli.run("capacity", "--workload", workload().toString(), "--entry", "reactor");
        assertThat(variant.exit()).isEqualTo(2);
        assertThat(variant.err()).contains("use --workload frameworks");
    }
}
