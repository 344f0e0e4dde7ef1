package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import com.fasterxml.jackson.databind.JsonNode;
import dev.blocklab.report.HtmlReport;
import dev.blocklab.report.Jsons;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.report.SyntheticResults;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportCommandTest {
    @TempDir Path dir;

    /** A results file as run and reproduce write it: rows streamed first, then each whole result. */
    private Path saved(String name, List<ExperimentResult> results) {
        Path file = dir.resolve(name);
        try (ResultsFile f = new ResultsFile(file)) {
            for (RunResult r : SyntheticResults.runs()) f.write("run", r);
            for (ExperimentResult r : results) f.writeResult(r);
        }
        return file;
    }

    private static List<ExperimentResult> originals() {
        return List.of(SyntheticResults.standard(), SyntheticResults.handMade());
    }

    @Test void read_savedResults_tablesNotesChartsAndEnvironmentRoundTrip() {
        List<ExperimentResult> back = ResultsFile.read(saved("a.jsonl", originals()));
        assertThat(back).hasSize(2);
        for (int i = 0; i < 2; i++) {
            ExperimentResult want = originals().get(i);
            ExperimentResult got = back.get(i);
            assertThat(got.experiment()).isEqualTo(want.experiment());
            assertThat(got.tables()).isEqualTo(want.tables());
            assertThat(got.notes()).isEqualTo(want.notes());
            assertThat(got.charts()).isEqualTo(want.charts());
            assertThat(got.environment()).isEqualTo(want.environment());
        }
        assertThat(back.getFirst().rows()).hasSize(4).first().isInstanceOfSatisfying(Map.class,
                row -> assertThat(row.get("model")).isEqualTo("fixed:8"));
    }

    @Test void report_html_sameBytesAsTheOriginalResults() throws Exception {
        Path file = saved("a.jsonl", originals());
        Path html = dir.resolve("out/report.html");
        Cli.Run report = Cli.run("report", "--format", "html", "--out", html.toString(), "--timestamp", SyntheticResults.TIMESTAMP, file.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(Files.readString(html)).isEqualTo(new HtmlReport(SyntheticResults.TIMESTAMP)
                .renderPage("synthetic-runs, hand-made", originals()));
    }

    @Test void report_textWide_sameAsTheOriginalResults() {
        Cli.Run report = Cli.run("report", "--wide", saved("a.jsonl", originals()).toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out()).isEqualTo(ReportFormat.TEXT.create().render(originals().get(0)) + "\n"
                + ReportFormat.TEXT.create().render(originals().get(1)));
    }

    @Test void report_textDefault_fitsTheTerminalWidth() {
        Cli.Run report = Cli.run("report", saved("a.jsonl", originals()).toString());
        assertThat(report.exit()).as(report.err()).isZero();
        int width = TextWidth.columns(false);
        assertThat(report.out()).isEqualTo(ReportFormat.TEXT.create(width).render(originals().get(0)) + "\n"
                + ReportFormat.TEXT.create(width).render(originals().get(1)));
        assertThat(report.out().lines().filter(l -> l.length() > width)).isEmpty();
        assertThat(report.out()).contains("with --wide");
    }

    @Test void textWidth_columnsFromTheEnvironment_or120() {
        assertThat(TextWidth.columns(false, java.util.Map.of())).isEqualTo(120);
        assertThat(TextWidth.columns(false, java.util.Map.of("COLUMNS", "93"))).isEqualTo(93);
        assertThat(TextWidth.columns(false, java.util.Map.of("COLUMNS", "12"))).as("as narrow as tables go, not back to 120").isEqualTo(40);
        assertThat(TextWidth.columns(false, java.util.Map.of("COLUMNS", "0"))).isEqualTo(120);
        assertThat(TextWidth.columns(false, java.util.Map.of("COLUMNS", "wide"))).isEqualTo(120);
        assertThat(TextWidth.columns(true, java.util.Map.of("COLUMNS", "93"))).isEqualTo(ReportFormat.WIDE);
    }

    @Test void report_json_keepsChartsWithTheirType() throws Exception {
        Cli.Run report = Cli.run("report", "--format", "json", saved("a.jsonl", List.of(SyntheticResults.handMade())).toString());
        assertThat(report.exit()).as(report.err()).isZero();
        JsonNode root = Jsons.mapper().readTree(report.out());
        assertThat(root.get("charts")).hasSize(4);
        assertThat(root.get("charts").get(0).get("type").asText()).isEqualTo("line");
        assertThat(root.get("charts").get(2).get("type").asText()).isEqualTo("bar");
    }

    @Test void report_csv_tablesOnly() {
        Cli.Run report = Cli.run("report", "--format", "csv", saved("a.jsonl", List.of(SyntheticResults.standard())).toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out()).startsWith("table,model,requests,").contains("\nSynthetic runs,fixed:8,100,")
                .contains("\nCost per request,").doesNotContain("\n# ").doesNotContain("\n\n");
    }

    @Test void report_csvOfTwoFiles_oneHeaderAndTheFileInTheTableColumn() {
        Path a = saved("before.jsonl", List.of(SyntheticResults.standard()));
        Path b = saved("after.jsonl", List.of(SyntheticResults.standard()));
        Cli.Run report = Cli.run("report", "--format", "csv", a.toString(), b.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out().lines().filter(l -> l.startsWith("table,"))).hasSize(1);
        assertThat(report.out()).contains("\nbefore.jsonl / synthetic-runs: Synthetic runs,fixed:8,")
                .contains("\nafter.jsonl / synthetic-runs: Synthetic runs,fixed:8,").doesNotContain("\n\n");
    }

    @Test void report_twoFiles_comparisonFirstWithOverlaidCharts() throws Exception {
        Path a = saved("before.jsonl", List.of(SyntheticResults.standard()));
        Path b = saved("after.jsonl", List.of(SyntheticResults.standard()));
        String page = htmlPage("cmp.html", a, b);
        assertThat(page.indexOf("id=\"r1-comparison\"")).isPositive().isLessThan(page.indexOf("id=\"r2-before-jsonl-synthetic-runs\""));
        assertThat(page).contains("synthetic-runs (quick, delays / 10): synthetic: latency percentile spectrum")
                .contains("data-series=\"before.jsonl: fixed:8\"").contains("data-series=\"after.jsonl: fixed:8\"")
                .contains("id=\"r3-after-jsonl-synthetic-runs\"");
        // the comparison's legends name each model once and each source once, not model x source
        String comparison = page.substring(page.indexOf("id=\"r1-comparison\""), page.indexOf("id=\"r2-before-jsonl-synthetic-runs\""));
        String spectrum = comparison.substring(comparison.indexOf("latency percentile spectrum</title>"));
        spectrum = spectrum.substring(0, spectrum.indexOf("</svg>"));
        String legend = spectrum.substring(spectrum.indexOf("<g class=\"legend\">"));
        assertThat(legend).contains(">fixed:8</text>").contains(">before.jsonl</text>").contains(">after.jsonl</text>")
                .doesNotContain("before.jsonl: fixed:8");
    }

    /** The page {@code report --format html} writes to {@code name} for {@code files}, once it exited 0. */
    private String htmlPage(String name, Path... files) throws java.io.IOException {
        Path html = dir.resolve(name);
        List<String> args = new java.util.ArrayList<>(List.of("report", "--format", "html", "--out", html.toString(), "--timestamp", "t"));
        for (Path f : files) args.add(f.toString());
        Cli.Run report = Cli.run(args.toArray(String[]::new));
        assertThat(report.exit()).as(report.err()).isZero();
        return Files.readString(html);
    }

    @Test void report_twoFilesOfOneName_labelledByTheirDirectoriesAndCountedApart() throws Exception {
        Files.createDirectories(dir.resolve("a"));
        Files.createDirectories(dir.resolve("b"));
        Path a = saved("a/fan.jsonl", List.of(SyntheticResults.standard()));
        Path b = saved("b/fan.jsonl", List.of(SyntheticResults.standard()));
        String page = htmlPage("fan.html", a, b);
        assertThat(page).contains("from 2 sources, overlaid")
                .contains("data-series=\"a/fan.jsonl: fixed:8\"").contains("data-series=\"b/fan.jsonl: fixed:8\"")
                .doesNotContain("data-series=\"fan.jsonl: ");
        Cli.Run text = Cli.run("report", a.toString(), b.toString());
        assertThat(text.out()).contains("# from a/fan.jsonl\n").contains("# from b/fan.jsonl\n");
    }

    @Test void report_twoFilesAtDifferentTimeScales_areNotOverlaid() throws Exception {
        ExperimentResult quick = SyntheticResults.standard();
        ExperimentResult full = new ExperimentResult(quick.experiment(), quick.description(), "full, real delays", quick.environment(),
                quick.rows(), quick.tables(), quick.notes(), quick.charts());
        Path a = saved("quick.jsonl", List.of(quick));
        Path b = saved("full.jsonl", List.of(full));
        Path html = dir.resolve("scales.html");
        Cli.Run report = Cli.run("report", "--format", "html", "--out", html.toString(), "--timestamp", "t", a.toString(), b.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        String page = Files.readString(html);
        String comparison = page.substring(page.indexOf("id=\"r1-comparison\""), page.indexOf("id=\"r2-quick-jsonl-synthetic-runs\""));
        assertThat(comparison).doesNotContain("data-series=\"quick.jsonl: ").doesNotContain("<svg");
        assertThat(comparison).contains("none overlaid").doesNotContain("sources, overlaid");
    }

    @Test void report_twoFilesOfDifferentWorkloads_areNotOverlaid() throws Exception {
        ExperimentResult standard = SyntheticResults.standard();
        ExperimentResult mixed = new ExperimentResult(standard.experiment(), "capacity of mixed", standard.scale(),
                standard.environment(), standard.rows(), standard.tables(), standard.notes(), standard.charts());
        ExperimentResult other = new ExperimentResult(standard.experiment(), "capacity of hundred-calls", standard.scale(),
                standard.environment(), standard.rows(), standard.tables(), standard.notes(), standard.charts());
        Path a = saved("mixed.jsonl", List.of(mixed));
        Path b = saved("hundred.jsonl", List.of(other));
        Path c = saved("mixed-again.jsonl", List.of(mixed));
        Path html = dir.resolve("workloads.html");
        Cli.Run exit = Cli.run("report", "--format", "html", "--out", html.toString(), "--timestamp", "t", a.toString(), b.toString(), c.toString());
        assertThat(exit.exit()).as(exit.err()).isZero();
        String page = Files.readString(html);
        String comparison = page.substring(page.indexOf("id=\"r1-comparison\""), page.indexOf("id=\"r2-mixed-jsonl-synthetic-runs\""));
        assertThat(comparison).as("the same workload twice is overlaid")
                .contains("data-series=\"mixed.jsonl: fixed:8\"").contains("data-series=\"mixed-again.jsonl: fixed:8\"")
                .as("another workload is not").doesNotContain("data-series=\"hundred.jsonl: ");
        assertThat(comparison).as("the caption's sentences are apart").contains(". Overlaid from: mixed.jsonl, mixed-again.jsonl.")
                .contains("Each source measured capacity of mixed.");
    }

    @Test void report_fileWithRowsOnly_rebuildsRunsWithCharts() throws Exception {
        Path file = dir.resolve("interrupted.jsonl");
        try (ResultsFile f = new ResultsFile(file)) {
            for (RunResult r : SyntheticResults.runs()) f.write("run", r);
        }
        List<ExperimentResult> back = ResultsFile.read(file);
        assertThat(back).hasSize(1);
        assertThat(back.getFirst().rows()).hasSize(4);
        assertThat(back.getFirst().charts()).hasSize(7);
        assertThat(back.getFirst().tables().getFirst().rows()).hasSize(4);
    }

    @Test void report_notAResultsFile_exit2NamingFileAndLine() throws Exception {
        assertRefused("{\"kind\":\"run\"}\nnot json\n", "bad.jsonl line 2: not a saved result");
        // a result line without its tables: named, not a NullPointerException's words
        assertRefused("{\"kind\":\"experiment-result\",\"experiment\":\"x\"}\n",
                "bad.jsonl line 1: not a saved result (an experiment-result line without 'rows')");
        assertRefused("{\"kind\":\"experiment-result\",\"experiment\":\"x\",\"rows\":[],\"tables\":[{\"title\":\"t\"}],\"notes\":[]}\n",
                "bad.jsonl line 1: not a saved result (a field a Table needs is missing or null)");
        // a record's own check, in its words
        assertRefused("{\"kind\":\"run\",\"model\":\"x\",\"wallMillis\":1,\"latencyMillis\":{}}\n",
                "bad.jsonl line 1: not a saved result (Repeats: ");
        // a report printed with --format json: one document over many lines (Jackson's internals were quoted)
        assertRefused("{\n  \"experiment\" : \"run\",\n  \"rows\" : [ ]\n}\n",
                "bad.jsonl: one JSON document over several lines, as '--format json' prints a report");
    }

    /** {@code report} of a file holding {@code text}: exit 2, and stderr holds {@code error}. */
    private void assertRefused(String text, String error) throws java.io.IOException {
        Path file = Files.writeString(dir.resolve("bad.jsonl"), text);
        Cli.Run report = Cli.run("report", file.toString());
        assertThat(report.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(report.err()).contains(error);
    }

    @Test void read_lastLineCutShort_leftOutWithAWarningAndItsRunsRecovered() throws Exception {
        Path whole = saved("whole.jsonl", List.of(SyntheticResults.standard()));
        String text = Files.readString(whole);
        int resultLine = text.indexOf("{\"kind\":\"" + ResultsFile.EXPERIMENT_RESULT);
        Path cut = Files.writeString(dir.resolve("cut.jsonl"), text.substring(0, resultLine + 100));   // killed while writing the result
        List<String> warnings = new java.util.ArrayList<>();
        List<ExperimentResult> back = ResultsFile.read(cut, warnings::add);
        assertThat(warnings).containsExactly(cut + " line 5 was cut short (the file ends in the middle of it: the writing process was stopped) and is left out");
        assertThat(back).singleElement().satisfies(r -> {
            assertThat(r.rows()).hasSize(4);
            assertThat(r.description()).endsWith("(the file holds no experiment-result line)");
            assertThat(r.notes()).contains("The file's line 5 was cut short (the file ends in the middle of it: the writing process was stopped) and is left out.");
        });

        Cli.Run report = Cli.run("report", cut.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.err()).isEqualTo("blocklab: warning: " + cut + " line 5 was cut short (the file ends in the middle of it: the writing process was stopped) and is left out\n");
        assertThat(report.out()).contains("Recovered runs").contains("fixed:8");

        Path nothingElse = Files.writeString(dir.resolve("only.jsonl"), "{\"kind\":\"run\",\"model\":\"fi");
        assertThatThrownBy(() -> ResultsFile.read(nothingElse)).hasMessage(nothingElse
                + ": no results in it (expected JSON lines written by 'blocklab run' or 'blocklab reproduce'; its line 1 was cut short"
                + " (the file ends in the middle of it: the writing process was stopped) and is left out)");
    }

    @Test void read_shardRecordAfterTheResult_asAttacksSavedItBefore_isNoUnfinishedExperiment() throws Exception {
        Path file = dir.resolve("shard-0.jsonl");
        try (ResultsFile f = new ResultsFile(file)) {
            f.writeResult(SyntheticResults.standard());
            f.writePageTitle("attack x");
            f.write(dev.blocklab.shard.ShardRecord.KIND, Map.of("shard", "0/2"));
        }
        assertThat(ResultsFile.read(file)).singleElement().satisfies(r -> assertThat(r.experiment()).isEqualTo(SyntheticResults.standard().experiment()));
        Files.writeString(file, "{\"kind\":\"attack-interval\",\"second\":1}\n", java.nio.file.StandardOpenOption.APPEND);
        assertThat(ResultsFile.read(file)).as("any other kind after the result is").hasSize(2);
    }

    @Test void read_runsAfterTheLastResult_recoveredAsAnUnfinishedExperiment() throws Exception {
        Path file = dir.resolve("two.jsonl");
        try (ResultsFile f = new ResultsFile(file)) {
            for (RunResult r : SyntheticResults.runs()) f.write("run", r);
            f.writeResult(SyntheticResults.standard());
            f.write("run", SyntheticResults.runs().getFirst());   // the next experiment's first run, then the process stopped
        }
        List<ExperimentResult> back = ResultsFile.read(file);
        assertThat(back).hasSize(2);
        assertThat(back.getFirst().experiment()).isEqualTo(SyntheticResults.standard().experiment());
        assertThat(back.get(1).rows()).hasSize(1);
        assertThat(back.get(1).description()).endsWith("(after its last experiment-result line: an experiment that did not finish)");
    }

    @Test void read_stoppedBeforeAnyResult_rowsOfOtherKindsBecomeATableOfTheirFields() throws Exception {
        Path file = dir.resolve("capacity.jsonl");
        try (ResultsFile f = new ResultsFile(file)) {
            f.write("capacity-step", Map.of("entry", "fixed:4", "measurement", Map.of("p99Millis", 412.345678, "requests", 50)));
            f.write("capacity-step", Map.of("entry", "virtual", "notes", List.of("a", "b"), "why", "x".repeat(100),
                    "latencyHistogram", "HISTFAAAAEh4nJNpmSzMwMCgwwABzFCaEch0M9ixgMH"));   // base64: left out
            f.writePageTitle("capacity one-call");
        }
        ExperimentResult back = ResultsFile.read(file).getFirst();
        assertThat(back.scale()).isEqualTo("scale not saved");
        assertThat(back.rows()).hasSize(2);
        dev.blocklab.result.Table t = back.tables().getFirst();
        assertThat(t.title()).isEqualTo("Rows of kind 'capacity-step', as streamed");
        assertThat(t.columns()).containsExactlyInAnyOrder("entry", "measurement.p99Millis", "measurement.requests", "notes", "why");
        Map<String, String> first = new java.util.HashMap<>(), second = new java.util.HashMap<>();
        for (int i = 0; i < t.columns().size(); i++) {
            first.put(t.columns().get(i), t.rows().get(0).get(i));
            second.put(t.columns().get(i), t.rows().get(1).get(i));
        }
        assertThat(first).containsEntry("entry", "fixed:4").containsEntry("measurement.p99Millis", "412.3")
                .containsEntry("measurement.requests", "50").containsEntry("notes", "-");
        assertThat(second).containsEntry("notes", "[2 items]").containsEntry("measurement.p99Millis", "-")
                .containsEntry("why", "x".repeat(77) + "...");

        Cli.Run report = Cli.run("report", "--wide", file.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(report.out()).contains("Rows of kind 'capacity-step', as streamed", "412.3");
    }

    @Test void read_stoppedBeforeAnyResult_aMapKeyedByDataIsOneCell_notAColumnPerKey() throws Exception {
        Path file = dir.resolve("database.jsonl");
        try (ResultsFile f = new ResultsFile(file)) {
            f.write("database-row", Map.of("model", "virtual", "failureCauses",
                    new java.util.TreeMap<>(Map.of("pool wait timed out after 1 s", 510, "connection refused", 2))));
            f.write("database-row", Map.of("model", "fixed:4", "failureCauses", Map.of()));
            f.writePageTitle("database");
        }
        dev.blocklab.result.Table t = ResultsFile.read(file).getFirst().tables().getFirst();
        assertThat(t.columns()).containsExactlyInAnyOrder("model", "failureCauses");
        int causes = t.columns().indexOf("failureCauses");
        assertThat(t.rows().get(0).get(causes)).isEqualTo("connection refused: 2; pool wait timed out after 1 s: 510");
        assertThat(t.rows().get(1).get(causes)).isEqualTo("-");   // none
    }

    @Test void read_stoppedBeforeAnyResult_aMapOfCountsKeyedByNamesThatDifferPerRow_isOneCell_aRecordStaysColumns() throws Exception {
        Path file = dir.resolve("failures.jsonl");
        try (ResultsFile f = new ResultsFile(file)) {
            f.write("failure-row", Map.of("model", "virtual", "failures", Map.of("Timeout", 3),
                    "latency", Map.of("p50Millis", 1.5, "p99Millis", 9)));
            f.write("failure-row", Map.of("model", "fixed:4", "failures", Map.of("ConnectException", 1),
                    "latency", Map.of("p50Millis", 2.5, "p99Millis", 12)));
            f.writePageTitle("failures");
        }
        dev.blocklab.result.Table t = ResultsFile.read(file).getFirst().tables().getFirst();
        assertThat(t.columns()).containsExactlyInAnyOrder("model", "failures", "latency.p50Millis", "latency.p99Millis");
        assertThat(t.rows().get(0).get(t.columns().indexOf("failures"))).isEqualTo("Timeout: 3");
        assertThat(t.rows().get(1).get(t.columns().indexOf("failures"))).isEqualTo("ConnectException: 1");
        assertThat(t.rows().get(1).get(t.columns().indexOf("latency.p99Millis"))).isEqualTo("12");
    }

    @Test void report_missingFile_exit2() {
        Cli.Run report = Cli.run("report", dir.resolve("nope.jsonl").toString());
        assertThat(report.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(report.err()).contains("no such file");
    }

    @Test void report_formatHdr_withoutMerge_saysItNeedsMerge() throws Exception {
        Path file = Files.writeString(dir.resolve("r.jsonl"), "{\"kind\":\"run\"}\n");
        Cli.Run report = Cli.run("report", "--format", "hdr", file.toString());
        assertThat(report.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(report.err()).isEqualTo("blocklab: --format hdr needs --merge: it is the latency spectrum of merged attack shards\n");
    }

    @Test void run_html_writesChartsAndTheSavedResultRebuildsTheSamePage() throws Exception {
        Path save = dir.resolve("run.jsonl");
        Path html = dir.resolve("run.html");
        Cli.Run report = Cli.run("run", "--workload", "task-graph", "--model", "fixed:2", "--model", "virtual", "--time-scale", "100",
                "--warmups", "0", "--repeats", "1", "--quiet", "--save", save.toString(), "--html", html.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        String page = Files.readString(html);
        // task-graph sends one request per run: the spectrum leaves those runs out and says why
        assertThat(page).contains("task-graph: latency percentile spectrum").contains("Left out, one request each")
                .contains("data-x=\"virtual\"")
                .contains("Prediction beside measurement".toLowerCase()).contains("<rect class=\"bar\"");
        List<String> lines = Files.readAllLines(save);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(2)).startsWith("{\"kind\":\"experiment-result\"");
        assertThat(lines.get(3)).isEqualTo("{\"kind\":\"page\",\"title\":\"run task-graph\"}");
        String reported = page.substring(page.indexOf("Reported ") + 9, page.indexOf(".</p>", page.indexOf("Reported ")));
        Path rebuilt = dir.resolve("rebuilt.html");
        // no --title: the page's title comes from the saved file, so the rebuilt page is byte-identical
        assertThat(Cli.run("report", "--format", "html", "--timestamp", reported,
                "--out", rebuilt.toString(), save.toString()).exit()).isZero();
        assertThat(Files.readString(rebuilt)).isEqualTo(page);
        assertThat(page).contains("<title>blocklab: run task-graph</title>");
    }

}
