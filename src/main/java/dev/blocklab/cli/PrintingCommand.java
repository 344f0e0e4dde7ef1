package dev.blocklab.cli;

import picocli.CommandLine;

import java.io.PrintWriter;

/** A command that only prints what it knows ({@code models}, {@code workloads}, {@code completion}) to standard output. */
abstract class PrintingCommand implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override public final void run() {
        PrintWriter out = spec.commandLine().getOut();
        print(out);
        out.flush();
    }

    abstract void print(PrintWriter out);
}
