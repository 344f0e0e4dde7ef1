package dev.blocklab.cli;

import picocli.CommandLine;

import java.io.PrintWriter;

/** A command that only prints what it knows ({@code models}, {@code workloads}, {@code completion}) to standard output. */
abstract class PrintingCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    /** Taken as every command takes them (nothing here to quiet; an error's stack trace with --verbose). */
    @CommandLine.Mixin SharedOptions.Console console = new SharedOptions.Console();

    @Override public final void run() {
        PrintWriter out = spec.commandLine().getOut();
        print(out);
        out.flush();
    }

    abstract void print(PrintWriter out);

    /**
     * {@code lead} then {@code text}, the text wrapped to the report width (the terminal's, or 120 columns) in
     * lines that continue under its start, so a listing fits the terminal as the text reports do.
     */
    static void hanging(PrintWriter out, String lead, String text) {
        int width = Math.max(TextWidth.MIN_COLUMNS, TextWidth.columns(false) - lead.length());
        String indent = " ".repeat(lead.length());
        java.util.List<String> lines = dev.blocklab.report.TextWrap.lines(text, width, "");
        for (int i = 0; i < lines.size(); i++) out.println((i == 0 ? lead : indent) + lines.get(i));
    }
}
