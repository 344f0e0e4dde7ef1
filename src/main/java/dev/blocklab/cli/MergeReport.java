package dev.blocklab.cli;

import dev.blocklab.report.AttackReportFormat;
import dev.blocklab.report.HtmlReport;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.shard.ShardMerge;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * {@code blocklab report --merge FILES}: the exact merge of an attack's shards ({@link ShardMerge}) in any report
 * format: text, CSV and HTML as every saved result with a table of the shards, JSON as {@code attack --format json}
 * (the merged attack's figures as numbers), and {@code hdr} (the merged latency's percentile spectrum). Shards of different attacks are refused with one line; missing and failed shards are named first.
 */
final class MergeReport {
    private MergeReport() {}

    /** Writes the merged report; returns the exit code: 1 when a shard is missing or failed, else 0. */
    static int run(ReportCommand c) {
        String f = c.format.format.trim().toLowerCase(Locale.ROOT);
        ReportFormat format = null;
        if (!f.equals("hdr"))
            try {
                format = ReportFormat.parse(f);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--format: '" + c.format.format + "' is not one of text, json, csv, html, hdr");
            }
        ShardMerge merged = ShardMerge.of(ShardMerge.read(c.files));
        String text;
        if (format == null) {
            text = AttackReportFormat.HDR.create().render(merged.result());
        } else if (format == ReportFormat.JSON) {   // the merged attack's figures, as 'attack --workers N --format json' prints them
            text = withMerge(AttackReportFormat.JSON.create().render(merged.result()), merged);
        } else {
            ExperimentResult experiment = merged.experiment(Environment.current());
            text = format == ReportFormat.HTML
                    ? new HtmlReport(c.timestamp != null ? c.timestamp : ReportCommand.now()).renderPage(
                    c.title != null ? c.title : "attack " + merged.result().description(), List.of(experiment))
                    : format.create(c.wide.columns()).render(experiment);
        }
        if (c.out == null) {
            PrintWriter w = c.spec.commandLine().getOut();
            w.print(text);
            w.flush();
        } else {
            ReportCommand.writeFile(c.out, text);
            c.console.saved(c.spec.commandLine().getErr(), "report", c.out);   // nothing with --quiet, as report says it
        }
        if (merged.incomplete().isEmpty()) return 0;
        c.spec.commandLine().getErr().println("blocklab: " + merged.incomplete().get());
        return 1;
    }

    /** The attack's JSON with what the merge took in: shards merged of how many, and each missing or failed one. */
    static String withMerge(String attackJson, ShardMerge merged) {
        try {
            var mapper = dev.blocklab.report.Jsons.mapper();
            var root = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(attackJson);
            var merge = root.putObject("merge");
            merge.put("shardsMerged", merged.records().size());
            merge.put("shardCount", merged.shardCount());
            merge.put("complete", merged.problems().isEmpty());
            var problems = merge.putArray("problems");
            merged.problems().forEach(problems::add);
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + System.lineSeparator();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
