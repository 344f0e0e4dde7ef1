package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The output options that {@code run} and {@code reproduce} share, as one picocli mixin. */
final class OutputOptions {
    @Option(names = "--save", paramLabel = "FILE", description = "Stream each result to this JSON Lines file as it is measured (default: results/<command>-<time>.jsonl).")
    Path save;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write one self-contained HTML page with charts, tables and notes to FILE.")
    Path html;

    @Option(names = "--wide", description = "Text tables with every column, unwrapped (default: the essential columns, fitting the terminal's width, COLUMNS, or 120 columns).")
    boolean wide;

    @Option(names = "--quiet", description = "No progress on stderr.")
    boolean quiet;

    @Option(names = "--verbose", description = "Stack traces for errors.")
    boolean verbose;

    /** The results file to stream to: {@code --save}, or a fresh file under results/. */
    ResultsFile openResults(String command) {
        return new ResultsFile(save != null ? save : ResultsFile.defaultPath(command));
    }
}
