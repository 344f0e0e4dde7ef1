package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import dev.blocklab.report.Comparison;
import dev.blocklab.report.HtmlReport;
import dev.blocklab.report.Jsons;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.result.ExperimentResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** {@code blocklab report}: rebuilds reports from saved results, several runs on one page. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Rebuild a text, JSON, CSV or HTML report from results saved by 'blocklab run', 'reproduce', 'capacity', 'advise' or 'attack --save' (or results/*.jsonl).",
                "With several files, the HTML page starts with their charts overlaid to compare them, then each file's results."},
        footer = {"", "Examples:",
                "  blocklab report results/reproduce-20261121-230000.jsonl",
                "  blocklab report --format html --out report.html results/reproduce-*.jsonl",
                "  blocklab report --format csv results/run-20261121-230000.jsonl > runs.csv",
                "  blocklab report --format html --out cmp.html old.jsonl new.jsonl",
                "  blocklab report --merge results/workers-20261121-230000/    # one attack's --workers directory",
                "  blocklab report --merge --format json shard-*.hlog"})
final class ReportCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "JSON Lines files written by 'blocklab run', 'reproduce', 'capacity', 'advise' or 'attack --save'.")
    List<Path> files;

    @picocli.CommandLine.Mixin SharedOptions.Format format = new SharedOptions.Format();

    @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE instead of standard output.")
    Path out;

    @Option(names = "--title", paramLabel = "TEXT", description = "Title of the HTML page (default: the title the saving command gave its page, or the experiments' names).")
    String title;

    @Option(names = "--timestamp", paramLabel = "TEXT", description = "The HTML page's 'reported' time (default: now, UTC); give one for byte-identical pages.")
    String timestamp;

    @picocli.CommandLine.Mixin SharedOptions.Wide wide = new SharedOptions.Wide();

    @picocli.CommandLine.Mixin SharedOptions.Console console = new SharedOptions.Console();

    @Option(names = "--merge", description = "The files are shards of one attack ('blocklab attack --shard I/N' with --save or --hlog, or pods' logs): add their histograms and counters into one result, exactly as one process recording every sample; --format text, json, csv, html or hdr. Exits 1 when a shard is missing or failed (the report of the others is still written).")
    boolean merge;

    @Override public Integer call() {
        for (Path file : files)   // the report would replace the results it was made from
            if (out != null && out.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize()))
                throw new IllegalArgumentException("--out " + out + " is one of the files read: the report would overwrite them; give --out its own file");
        if (merge) return MergeReport.run(this);
        if (format.format.trim().equalsIgnoreCase("hdr"))
            throw new IllegalArgumentException("--format hdr needs --merge: it is the latency spectrum of merged attack shards");
        ReportFormat reportFormat = format.parse();
        List<Comparison.Source> sources = new ArrayList<>();
        List<String> labels = dev.blocklab.Names.fileLabels(files);   // a/fan.jsonl and b/fan.jsonl, not fan.jsonl twice
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            if (Files.isDirectory(file)) throw new IllegalArgumentException("report: " + file + " is a directory");
            if (!Files.isRegularFile(file)) throw new IllegalArgumentException("report: no such file " + file);
            for (ExperimentResult r : ResultsFile.read(file, w -> spec.commandLine().getErr().println("blocklab: warning: " + w)))
                sources.add(new Comparison.Source(labels.get(i), r));
        }
        String text = switch (reportFormat) {
            case HTML -> html(sources);
            case JSON -> json(sources);
            case CSV -> csv(sources);
            default -> {
                StringBuilder b = new StringBuilder();
                for (Comparison.Source s : sources) {
                    if (!b.isEmpty()) b.append('\n');
                    if (files.size() > 1 && reportFormat == ReportFormat.TEXT) b.append("# from ").append(s.label()).append('\n');
                    b.append(reportFormat.create(wide.columns()).render(s.result()));
                }
                yield b.toString();
            }
        };
        if (out == null) {
            PrintWriter w = spec.commandLine().getOut();
            w.print(text);
            w.flush();
        } else {
            writeFile(out, text);
            console.saved(spec.commandLine().getErr(), "report", out);
        }
        return 0;
    }

    private String html(List<Comparison.Source> sources) {
        List<ExperimentResult> page = new ArrayList<>();
        if (files.size() > 1) page.add(Comparison.of(sources));
        for (Comparison.Source s : sources) {
            ExperimentResult r = s.result();
            page.add(files.size() > 1 ? new ExperimentResult(s.label() + " / " + r.experiment(), r.description(), r.scale(),
                    r.environment(), r.rows(), r.tables(), r.notes(), r.charts()) : r);
        }
        String saved = files.size() == 1 ? ResultsFile.pageTitle(files.getFirst()) : null;
        String pageTitle = title != null ? title : saved != null ? saved
                : String.join(", ", sources.stream().map(s -> s.result().experiment()).distinct().toList());
        return new HtmlReport(timestamp != null ? timestamp : now()).renderPage(pageTitle, page);
    }

    private static String json(List<Comparison.Source> sources) {
        if (sources.size() == 1) return ReportFormat.JSON.create().render(sources.getFirst().result());
        try {
            var array = Jsons.mapper().createArrayNode();
            for (Comparison.Source s : sources)
                array.add(Jsons.mapper().readTree(ReportFormat.JSON.create().render(s.result())));
            return Jsons.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }

    /** One CSV of every source's tables (one header for all), each table titled with its file and experiment when there are several. */
    private String csv(List<Comparison.Source> sources) {
        if (sources.size() == 1) return ReportFormat.CSV.create().render(sources.getFirst().result());
        List<dev.blocklab.result.Table> tables = new ArrayList<>();
        for (Comparison.Source s : sources)
            for (dev.blocklab.result.Table t : s.result().tables())
                tables.add(new dev.blocklab.result.Table(s.label() + " / " + s.result().experiment() + ": " + t.title(), t.columns(), t.rows()));
        return ReportFormat.CSV.create().render(new ExperimentResult("report", "several results", "mixed", null, List.of(), tables, List.of()));
    }

    /** The time a page says it was reported: now, UTC, to the second. */
    static String now() { return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(); }

    /**
     * Writes one HTML page holding {@code results} to {@code file}; what {@code --html FILE} of run, reproduce
     * (and any command that produces {@link ExperimentResult}s) calls.
     */
    static void writeHtml(Path file, String title, List<ExperimentResult> results, String reportedAt) {
        writeFile(file, new HtmlReport(reportedAt).renderPage(title, results));
    }

    static void writeFile(Path file, String text) {
        try {
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new Main.UsageException("cannot write " + file + ": " + dev.blocklab.TextFiles.reason(e));
        }
    }
}
