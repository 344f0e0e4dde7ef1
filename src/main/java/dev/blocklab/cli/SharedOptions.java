package dev.blocklab.cli;

import dev.blocklab.report.ReportFormat;
import dev.blocklab.report.ResultsFile;
import dev.blocklab.result.ExperimentResult;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The options that mean the same in every command that has them, each a picocli mixin declared once: one name,
 * one parameter label, one description. Defaults that differ between commands (the port of {@code serve} and
 * {@code backend}, {@code reproduce}'s quick time scale) come from {@link CommandDefaults}, so no default is
 * written here.
 */
final class SharedOptions {
    private SharedOptions() {}

    /** {@code --quiet} and {@code --verbose}, and the closing line every command prints the same way. */
    static final class Console {
        @Option(names = "--quiet", description = "Only the report (a server: only its 'listening on' line): no progress, no start-up or closing lines.")
        boolean quiet;

        @Option(names = "--verbose", description = "Print an error's stack trace, not only its one line.")
        boolean verbose;

        /** {@code WHAT saved to WHERE} on {@code err}, the one wording of every closing line; nothing with {@code --quiet}. */
        void saved(PrintWriter err, String what, Object where) {
            if (quiet) return;
            err.println(what + " saved to " + where);
            err.flush();
        }

        /** {@code results saved to FILE}, naming where the file's earlier results were kept, when it held any. */
        void saved(PrintWriter err, dev.blocklab.report.ResultsFile file) {
            saved(err, "results", file.path() + file.keptEarlier().map(p -> " (its earlier results kept as " + p + ")").orElse(""));
        }

        ConsoleProgress progress(PrintWriter err) { return new ConsoleProgress(err, quiet); }
    }

    /** {@code --save FILE} and {@code --html FILE}: where results go besides the report on standard output. */
    static final class Results {
        @Option(names = "--save", paramLabel = "FILE", description = "Stream the results to this JSON Lines file as they are measured; "
                + "'blocklab report FILE' rebuilds any report from it (without it, run, reproduce, capacity and advise save to "
                + "results/<command>-<time>.jsonl, and attack saves nothing).")
        Path save;

        @Option(names = "--html", paramLabel = "FILE", description = "Also write one self-contained HTML page of the results (charts, tables and notes) to FILE.")
        Path html;

        /**
         * The results file to stream to: {@code --save}, or a fresh file under results/; opened before any work,
         * as {@code --html} is checked, so neither fails only once the work is done.
         */
        ResultsFile openOrDefault(String command) {
            checkHtml();
            return new ResultsFile(save != null ? save : ResultsFile.defaultPath(command));
        }

        /** {@code --html}, when given, can be written (see {@link Flags#writable}), and is not {@code --save}'s file. */
        void checkHtml() {
            Flags.distinct("--save", save, "--html", html);
            Flags.writable("--html", html);
        }
    }

    /** {@code --format} of a command whose report is one {@link ExperimentResult}, and printing it so. */
    static final class Format {
        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, json, csv or html (default: ${DEFAULT-VALUE}).")
        String format;

        /** The format, or a one-line error naming {@code --format}; call it before measuring, so a typo fails at once. */
        ReportFormat parse() { return ReportFormat.parse(format); }

        /** {@code result} rendered in this format, {@code columns} wide, on the command's standard output. */
        void print(CommandSpec spec, ExperimentResult result, int columns) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(parse().create(columns).render(result));
            out.flush();
        }
    }

    /** {@code --wide}: every column of a text table. */
    static final class Wide {
        @Option(names = "--wide", description = "Text tables with every column, unwrapped (default: the essential columns, fitting the terminal's width, COLUMNS, or 120 columns).")
        boolean wide;

        int columns() { return TextWidth.columns(wide); }
    }

    /** {@code --seed N}. */
    static final class Seed {
        @Option(names = "--seed", paramLabel = "N", description = "Seed of every latency and failure draw (default: ${DEFAULT-VALUE}).")
        long seed = dev.blocklab.Defaults.SEED;   // also where the default provider does not reach (a mixin inside a mixin)
    }

    /** {@code --time-scale N}; validated by the settings record it goes into. */
    static final class TimeScale {
        @Option(names = "--time-scale", paramLabel = "N", description = "Divide every delay by N; 1 is real time (default: ${DEFAULT-VALUE}).")
        long timeScale;
    }

    /** {@code --host} and {@code --port} of a server; validated by its settings record. */
    static final class Listen {
        @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to bind (default: ${DEFAULT-VALUE}).")
        String host;

        @Option(names = "--port", paramLabel = "N", description = "Port to bind; 0 picks a free one (default: ${DEFAULT-VALUE}).")
        int port;
    }
}
