package dev.blocklab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.blocklab.report.Jsons;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code blocklab run --workload FILE}: a user's own workload file through the command line. */
class RunWorkloadFileTest {
    @TempDir Path dir;


    private String[] runArgs(Path workload, Path save) {
        return new String[]{"run", "--workload", workload.toString(), "--model", "fixed:2", "--model", "virtual",
                "--time-scale", "100", "--repeats", "1", "--warmups", "0", "--format", "json", "--quiet",
                "--save", save.toString()};
    }

    @Test
    void run_failingBeforeMeasuringAnything_leavesNoResultsFile() {
        Path save = dir.resolve("results/run.jsonl");
        Cli.Run run = Cli.run("run", "--workload", "examples/slow-query.yaml", "--postgres-url", "postgresql://u@127.0.0.1:1/db",
                "--model", "virtual", "--save", save.toString());
        assertThat(run.exit()).as(run.err()).isEqualTo(1);
        assertThat(save).as("an empty file would make 'report results/*.jsonl' fail").doesNotExist();
        assertThat(save.getParent()).as("nor an empty directory, which this run made").doesNotExist();
        assertThat(run.err()).doesNotContain("saved to");
    }

    @Test
    void run_userWorkloadFile_answersUnderEveryModel() throws IOException {
        Path workload = Files.writeString(dir.resolve("my.yaml"), """
                name: cli-check
                input: 1
                arrival: {batch: 20}
                steps:
                  - call: a
                    inputs: [input]
                    latency: 100ms
                    sum: 1
                  - call: b
                    latency: {uniform: [50ms, 150ms]}
                    returns: 5
                  - cpu: work
                    kind: sort
                    size: 1000
                    inputs: [a]
                  - combine: answer
                    inputs: [work, b]
                    format: "{work} and {b}"
                """);
        Path save = dir.resolve("results.jsonl");

        Cli.Run o = Cli.run(runArgs(workload, save));

        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode rows = Jsons.mapper().readTree(o.out()).get("rows");
        assertThat(rows).hasSize(2);
        for (JsonNode row : rows) {
            assertThat(row.get("workload").asText()).isEqualTo("cli-check");
            assertThat(row.get("answer").asText()).isEqualTo("2 and 5");
            assertThat(row.get("requests").asLong()).isEqualTo(20);
            assertThat(row.get("successes").asLong()).isEqualTo(20);
        }
        assertThat(rows.findValuesAsText("model")).containsExactly("fixed:2", "virtual");
        assertThat(Files.readAllLines(save)).hasSize(4); // two runs, then the whole result and the page's title
    }

    @Test
    void run_malformedWorkloadFile_exitsTwoWithOneLine() throws IOException {
        Path workload = Files.writeString(dir.resolve("bad.yaml"), """
                steps:
                  - call: a
                    latency: 20 sex
                """);

        Cli.Run o = Cli.run(runArgs(workload, dir.resolve("results.jsonl")));

        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err().lines().toList()).containsExactly(
                "blocklab: " + workload + ":3:14: steps[0].latency: '20 sex' is not a duration"
                        + " (use a number and a unit: ns, us, ms, s, m, h; e.g. 200ms)");
    }

    @Test
    void run_yamlSyntaxError_exitsTwoWithOneLineAndNoStackTrace() throws IOException {
        Path workload = Files.writeString(dir.resolve("broken.yaml"), "steps:\n  - call: a\n    latency: [1ms\n");

        Cli.Run o = Cli.run(runArgs(workload, dir.resolve("results.jsonl")));

        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err().lines().toList()).singleElement().asString()
                .startsWith("blocklab: " + workload + ":")
                .contains("not valid YAML")
                .doesNotContain("Exception");
    }
}
