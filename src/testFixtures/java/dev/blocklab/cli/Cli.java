package dev.blocklab.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs a {@code blocklab} command line in this JVM, as tests of the command line do, and keeps what it printed. */
public final class Cli {
    private Cli() {}

    /** What a command returned and printed. */
    public record Run(int exit, String out, String err) {}

    public static Run run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int exit = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }
}
