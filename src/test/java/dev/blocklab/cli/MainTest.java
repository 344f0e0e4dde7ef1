package dev.blocklab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.util.List;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @TempDir Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "run --workload nope --model virtual|unknown workload 'nope'",
            "run --workload hundred-calls --model fixd:8|unknown model 'fixd:8'",
            "run --workload hundred-calls --model fixed:0|at least 1 thread, got 0",
            "run --workload hundred-calls --model virtual --requests -5|--requests must be at least 1, got -5",
            "run --workload hundred-calls --model virtual --rate fast --duration 1s|--rate: 'fast' is not a positive rate",
            "run --workload hundred-calls --model virtual --users 2|--users needs --duration",
            "run --workload hundred-calls --model virtual --format xml|unknown format 'xml'",
            "run --workload missing.yaml --model virtual|workload file 'missing.yaml' does not exist",
            "reproduce no-such-experiment|unknown experiment 'no-such-experiment'",
            "reproduce frameworks --backend grpc|--backend must be simulated or http, got 'grpc'",
            "reproduce task-graph --backend http|--backend http: only frameworks, frameworks-capacity and frameworks-servlet choose their backend, not task-graph",
            "run --workload hundred-calls|Missing required option: '--model=MODEL'",
            "run --workload hundred-calls --model virtual --repeats x|Invalid value for option '--repeats'"})
    void execute_badInput_exitsTwoWithOneLine(String args, String message) {
        Cli.Run o = Cli.run((args + " --save " + tmp.resolve("r.jsonl")).split(" "));
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(o.err().lines().filter(l -> l.startsWith("blocklab:")).count()).isEqualTo(1);
    }

    @Test
    void run_jsonFormat_carriesTheDocumentedFields() throws Exception {
        Path save = tmp.resolve("runs.jsonl");
        Cli.Run o = Cli.run("run", "--workload", "task-graph", "--model", "fixed:2", "--model", "virtual",
                "--time-scale", "100", "--warmups", "0", "--repeats", "1", "--format", "json", "--quiet",
                "--save", save.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(o.out());
        assertThat(root.get("rows")).hasSize(2);
        JsonNode row = root.get("rows").get(0);
        for (String field : new String[]{"model", "workload", "answer", "requests", "successes", "failures",
                "wallMillis", "idealMillis", "predictedMillis", "latencyMillis", "peakPlatformThreads",
                "contextSwitches", "cpuMillis", "allocatedBytes"})
            assertThat(row.has(field)).as(field).isTrue();
        for (String p : new String[]{"p50", "p90", "p99", "p999", "max"})
            assertThat(row.get("latencyMillis").has(p)).as(p).isTrue();
        assertThat(row.get("contextSwitches").has("voluntary")).isTrue();
        assertThat(row.get("answer").asLong()).isEqualTo(13);
        assertThat(row.get("model").asText()).isEqualTo("fixed:2");
        // results streamed to disk, one line per run, then the whole result and the page's title
        var lines = Files.readAllLines(save);
        assertThat(lines).hasSize(4);
        assertThat(lines.subList(0, 2)).allMatch(l -> l.contains("\"kind\":\"run\""));
        assertThat(lines.get(2)).contains("\"kind\":\"experiment-result\"");
        assertThat(lines.get(3)).isEqualTo("{\"kind\":\"page\",\"title\":\"run task-graph\"}");
    }

    @Test
    void models_listsEveryModel() {
        Cli.Run o = Cli.run("models");
        assertThat(o.exit()).isZero();
        assertThat(o.out()).contains("sequential", "fixed:N", "cached", "forkjoin:N", "forkjoin-managed:N",
                "cf-blocking:N", "cf-nonblocking:N", "virtual", "structured");
    }

    @Test
    void modelsAndWorkloads_fitTheReportWidth_longDescriptionsContinueUnderTheirColumn() {
        int width = TextWidth.columns(false);
        for (String cmd : new String[]{"models", "workloads"}) {
            Cli.Run o = Cli.run(cmd);
            assertThat(o.exit()).isZero();
            assertThat(o.out().lines()).as(cmd).allMatch(l -> l.length() <= width);
        }
        // forkjoin-managed's description is longer than a line: it wraps, its continuation indented past the columns
        List<String> models = Cli.run("models").out().lines().toList();
        int at = models.indexOf(models.stream().filter(l -> l.startsWith("forkjoin-managed:N")).findFirst().orElseThrow());
        int column = models.getFirst().indexOf("what it does");
        assertThat(models.get(at + 1)).startsWith(" ".repeat(column)).doesNotStartWith(" ".repeat(column + 1));
    }

    @Test
    void workloads_listsTheFrameworksUseCase_withItsCalls() {
        String out = Cli.run("workloads").out().replaceAll("\n +", " ");   // wrapped descriptions joined again
        assertThat(out).contains("hundred-calls", "mixed").containsPattern("(?m)^frameworks +seed 002: .*4 calls.*framework variants run");
        assertThat(out).doesNotContain("1 calls");
    }

    @Test
    void help_ofEveryCommand_endsWithExamples() {
        for (String cmd : new String[]{"run", "reproduce", "models", "workloads"}) {
            Cli.Run o = Cli.run(cmd, "--help");
            assertThat(o.exit()).isZero();
            assertThat(o.out()).as(cmd).contains("Examples:");
        }
    }

    @Test
    void reproduceHelp_listsEveryRegisteredExperiment() {
        String help = Cli.run("reproduce", "--help").out();
        for (var e : dev.blocklab.experiment.Experiments.all()) assertThat(help).contains(e.name());
    }

    @Test
    void reproduce_formatHtml_onePageOnStandardOutput_asRunAccepts() {
        Cli.Run o = Cli.run("reproduce", "task-graph", "--time-scale", "100", "--format", "html", "--quiet",
                "--save", tmp.resolve("r.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).startsWith("<!DOCTYPE html>").contains("reproduce task-graph").contains("<svg");
        assertThat(o.out().indexOf("<!DOCTYPE html>")).isEqualTo(o.out().lastIndexOf("<!DOCTYPE html>"));
    }
}
