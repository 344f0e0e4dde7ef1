package dev.blocklab.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.URI;
import java.util.List;

/**
 * A command that serves over HTTP until interrupted ({@code serve}, {@code backend}): where it listens, and the
 * start-up lines both print the same way.
 */
abstract class ServerCommand implements Runnable {
    @Spec CommandSpec spec;

    @Mixin SharedOptions.Listen listen = new SharedOptions.Listen();

    /**
     * {@code listening on URI} on standard output, which a script waits for, then {@code details} unless
     * {@code quiet} ({@code --quiet}: a server prints only that line).
     */
    void announce(URI uri, boolean quiet, List<String> details) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("listening on " + uri);
        if (!quiet) details.forEach(out::println);
        out.flush();
    }
}
