package dev.blocklab.cli;

import picocli.CommandLine.Mixin;
import dev.blocklab.report.ResultsFile;

import java.nio.file.Path;

/** The output options of the commands that measure into a report ({@code run}, {@code reproduce}): the shared mixins together. */
final class OutputOptions {
    @Mixin SharedOptions.Results results = new SharedOptions.Results();
    @Mixin SharedOptions.Wide wide = new SharedOptions.Wide();
    @Mixin SharedOptions.Console console = new SharedOptions.Console();

    boolean quiet() { return console.quiet; }

    Path html() { return results.html; }

    int columns() { return wide.columns(); }

    /** The results file to stream to: {@code --save}, or a fresh file under results/. */
    ResultsFile openResults(String command) { return results.openOrDefault(command); }
}
