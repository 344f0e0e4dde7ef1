package dev.blocklab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.blocklab.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-process seed experiments end to end through the CLI, at time scale 1/100. */
class SeedExperimentsIT {
    @TempDir Path tmp;

    private JsonNode reproduce(String name) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path save = tmp.resolve(name + ".jsonl");
        int code = Main.execute(new String[]{"reproduce", name, "--time-scale", "100", "--format", "json", "--quiet",
                "--save", save.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        JsonNode root = new ObjectMapper().readTree(out.toString());
        assertThat(root.get("experiment").asText()).isEqualTo(name);
        assertThat(Files.readAllLines(save).stream().filter(l -> !l.contains("\"kind\":\"experiment-result\"") && !l.contains("\"kind\":\"page\"")))
                .hasSize(root.get("rows").size());
        return root;
    }

    @Test
    void taskGraph_everyRowAnswers13OrSurfacesTheOriginalFailure() throws Exception {
        JsonNode rows = reproduce("task-graph").get("rows");
        int happy = 0;
        int unhappy = 0;
        for (JsonNode row : rows) {
            if (row.get("workload").asText().equals("task-graph")) {
                happy++;
                assertThat(row.get("answer").asLong()).as(row.get("label").asText()).isEqualTo(13);
            } else {
                unhappy++;
                assertThat(row.get("failureCauses").has("java.lang.IllegalArgumentException: This won't work!"))
                        .as(row.get("label").asText()).isTrue();
            }
            assertThat(row.get("predictedMillis").asDouble()).isPositive();
        }
        assertThat(happy).isEqualTo(unhappy).isGreaterThanOrEqualTo(11);
        JsonNode style = rows.get(0);
        assertThat(style.get("articleMillis").asDouble()).isEqualTo(5008.0);
    }

    @Test
    void tenThousandJobs_countsThreadsAndCarriesArticleFigures() throws Exception {
        JsonNode rows = reproduce("ten-thousand-jobs").get("rows");
        assertThat(rows.size()).isGreaterThanOrEqualTo(2);
        for (JsonNode row : rows) {
            assertThat(row.get("requests").asLong()).isEqualTo(10_000);
            assertThat(row.get("successes").asLong()).isEqualTo(10_000);
            assertThat(row.get("wallMillisMin").asDouble()).isLessThanOrEqualTo(row.get("wallMillis").asDouble());
            if (row.get("model").asText().equals("cached")) {
                assertThat(row.get("articleMillis").asDouble()).isEqualTo(694.0);
                assertThat(row.get("platformThreadsStarted").asLong()).isPositive();
            }
            if (row.get("model").asText().equals("virtual"))
                assertThat(row.get("platformThreadsStarted").asLong()).isLessThan(50);
        }
    }
}
