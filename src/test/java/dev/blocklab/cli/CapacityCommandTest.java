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
                "a long batch (100,000 requests, a model of steady load) takes 2,500 s by its formula", "Reproduce: ./blocklab capacity --workload");
        String json = Files.readString(save);
        assertThat(json).contains("\"entry\":\"fixed:4\"", "\"predictedCeilingPerSecond\":40.0");
        double sustained = Double.parseDouble(json.replaceAll("(?s).*?\"sustainablePerSecond\":([0-9.]+).*", "$1"));
        double broken = Double.parseDouble(json.replaceAll("(?s).*?\"brokenPerSecond\":([0-9.]+).*", "$1"));
        assertThat(sustained).isBetween(5.0, 80.0);
        assertThat(broken).isGreaterThan(sustained).isLessThanOrEqualTo(160.0);

        // every run streamed as it ended, the warm-up first, before the result: a stopped search keeps them
        java.util.List<String> lines = Files.readAllLines(save);
        java.util.List<String> steps = lines.stream().filter(l -> l.startsWith("{\"kind\":\"capacity-step\"")).toList();
        assertThat(steps.getFirst()).contains("\"entry\":\"fixed:4\"", "\"phase\":\"warm-up (discarded)\"", "\"offeredPerSecond\":5.0");
        java.util.List<Double> rates = steps.subList(1, steps.size()).stream()
                .peek(l -> assertThat(l).contains("\"phase\":\"run 1/1\"", "\"p99Millis\":"))
                .map(l -> Double.parseDouble(l.replaceAll(".*\"offeredPerSecond\":([0-9.]+).*", "$1"))).toList();
        assertThat(rates).as("each rate the search tried, once (one repeat)").doesNotHaveDuplicates().contains(sustained, broken);
        assertThat(dev.blocklab.report.ResultsFile.read(save)).as("a complete search reads back as its one result")
                .singleElement().satisfies(r -> assertThat(r.description()).doesNotContain("recovered"));
        assertThat(lines.indexOf(steps.getLast())).isLessThan(lines.indexOf(lines.stream()
                .filter(l -> l.startsWith("{\"kind\":\"experiment-result\"")).findFirst().orElseThrow()));
    }

    @Test
    void advise_plainWordsWithTheCommand() throws IOException {
        Cli.Run o = Cli.run("advise", "--workload", workload().toString(), "--entry", "virtual", "--slo", "p99<=500ms",
                "--start-rate", "5/s", "--max-rate", "10/s", "--bisections", "0", "--repeats", "1", "--step", "1s", "--quiet",
                "--save", dir.resolve("advise.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out().lines()).allMatch(l -> l.length() <= TextWidth.columns(false));
        String joined = o.out().replace(" \\\n    ", " ").replace("\n  ", " ");   // the wrapped lines joined again
        assertThat(joined).startsWith("For " + dir.resolve("one-call.yaml") + ", use virtual: it kept p99<=500ms up to at least 10 requests a second")
                .contains("Reproduce: ./blocklab capacity --workload " + dir.resolve("one-call.yaml") + " --entry virtual --slo 'p99<=500ms'");
        // the saved results keep the advice: 'report' rebuilds it beside the tables, the command once
        Cli.Run report = Cli.run("report", dir.resolve("advise.jsonl").toString());
        assertThat(report.exit()).as(report.err()).isZero();
        String rebuilt = report.out().replace("\n  ", " ");
        assertThat(rebuilt).contains("For " + dir.resolve("one-call.yaml") + ", use virtual: it kept p99<=500ms up to at least 10 requests a second");
        assertThat(rebuilt.split("Reproduce: ", -1)).hasSize(2);
    }

    @Test
    void advise_formatJson_theAdviceTheRecommendationAndTheCapacityResult() throws Exception {
        Cli.Run o = Cli.run("advise", "--workload", workload().toString(), "--entry", "virtual", "--slo", "p99<=500ms",
                "--start-rate", "5/s", "--max-rate", "5/s", "--bisections", "0", "--repeats", "1", "--step", "1s", "--quiet",
                "--save", dir.resolve("advise.jsonl").toString(), "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        var json = dev.blocklab.report.Jsons.mapper().readTree(o.out());
        assertThat(json.get("recommended").asText()).isEqualTo("virtual");
        assertThat(json.get("sustainedPerSecond").asDouble()).isEqualTo(5.0);
        assertThat(json.get("objectives").get(0).asText()).isEqualTo("p99<=500ms");
        assertThat(json.get("advice").get(0).asText()).startsWith("For " + dir.resolve("one-call.yaml") + ", use virtual");
        assertThat(json.get("reproduce").asText()).startsWith("./blocklab capacity --workload");
        assertThat(json.get("capacity").get("experiment").asText()).isNotBlank();
        // one advice, made once from the search: the lines printed are those leading the saved and drawn notes
        java.util.List<String> advice = new java.util.ArrayList<>();
        json.get("advice").forEach(line -> advice.add(line.asText()));
        java.util.List<String> notes = new java.util.ArrayList<>();
        json.get("capacity").get("notes").forEach(line -> notes.add(line.asText()));
        assertThat(notes).startsWith(advice.getFirst()).containsSubsequence(advice);

        Cli.Run bad = Cli.run("advise", "--workload", workload().toString(), "--format", "html");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--format: 'html' is not one of text, json");
    }

    @Test
    void advise_reproduceLine_continuesAsAShellLine_withinTheWidth() {
        String command = "./blocklab capacity --workload examples/fan-out.yaml --entry fixed:16 --entry virtual --entry cf-nonblocking:2"
                + " --slo 'p99<=550ms' --slo 'success>=99.9%' --start-rate 10/s --max-rate 20000/s --factor 2.0 --bisections 3 --repeats 3 --step 5s --seed 42";
        var lines = AdviseCommand.shellLines("Reproduce: ", command, 120);
        assertThat(lines).hasSizeGreaterThan(1).allMatch(l -> l.length() <= 120);
        assertThat(lines.getFirst()).startsWith("Reproduce: ./blocklab capacity --workload examples/fan-out.yaml");
        assertThat(lines.subList(0, lines.size() - 1)).allMatch(l -> l.endsWith(" \\"));
        assertThat(lines.subList(1, lines.size())).allMatch(l -> l.startsWith("    ") && !l.startsWith("     "));
        // joined as a shell joins them, the same words: an option never parted from its value
        String joined = String.join("\n", lines).replace(" \\\n    ", " ");
        assertThat(joined).isEqualTo("Reproduce: " + command);
        assertThat(lines).noneMatch(l -> l.matches(".*--[a-z-]+ \\\\$"));
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
        Cli.Run profile = Cli.run("capacity", "--workload", "profile-page", "--entry", "http:bogus/sync-blocking");
        assertThat(profile.exit()).isEqualTo(2);
        assertThat(profile.err()).startsWith("blocklab: entry 'http:bogus/sync-blocking': unknown profile 'bogus' (known: ")
                .doesNotContain("--profile");
    }

    @Test
    void advise_aSuccessObjectiveTheWorkloadFailsByDesign_isRefusedUpFront_withTheSloToUse() throws IOException {
        // smoke test #18: a call failing 1 % by design can never meet success>=99.9 %; the search stopped wherever the
        // first failure showed and advise recommended a model at that meaningless rate
        Path failing = Files.writeString(dir.resolve("failing.yaml"), """
                name: failing
                input: 1
                arrival: {batch: 10}
                steps:
                  - call: posts
                    inputs: [input]
                    latency: 10ms
                    returns: 7
                    failure: {probability: 0.01}
                """);
        for (String command : new String[] {"advise", "capacity"}) {
            Cli.Run o = Cli.run(command, "--workload", failing.toString(), "--entry", "virtual", "--step", "1s", "--quiet");
            assertThat(o.exit()).as(o.err()).isEqualTo(2);
            assertThat(o.out()).isEmpty();
            assertThat(o.err()).startsWith("blocklab: No entry can meet success>=99.9% on " + failing + ": its calls fail by design, so at most 99.00 % "
                            + "of requests succeed whatever the model; use --slo 'success>=98%' (or lower) to compare the entries.\n")
                    .contains("Run instead: ./blocklab " + command + " --workload " + failing + " --entry virtual --slo 'p99<=550ms' --slo 'success>=98%'")
                    .doesNotContain("use virtual", "Knee curve");
        }
        Cli.Run met = Cli.run("advise", "--workload", failing.toString(), "--entry", "fixd:8", "--slo", "success>=90%");
        assertThat(met.exit()).isEqualTo(2);
    }

    @Test
    void withLead_putsTheLinesFirst_andANoteTheResultHoldsOnce() {
        var result = new dev.blocklab.result.ExperimentResult("capacity", "d", "real time", null, java.util.List.of(), java.util.List.of(),
                java.util.List.of("Search: ...", "Reproduce: x"), java.util.List.of());
        assertThat(CapacityCommand.withLead(result, java.util.List.of("For w, use virtual.", "Reproduce: x")).notes())
                .containsExactly("For w, use virtual.", "Search: ...", "Reproduce: x");
        assertThat(CapacityCommand.withLead(result, java.util.List.of())).isSameAs(result);
    }
}
