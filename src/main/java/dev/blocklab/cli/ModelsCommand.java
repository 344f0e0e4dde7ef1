package dev.blocklab.cli;

import dev.blocklab.model.Models;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** {@code blocklab models}: the registered models. */
@Command(name = "models", mixinStandardHelpOptions = true, description = "List the concurrency models: their syntax with parameters, whether they run on this JVM (column 'runs here'), and what they do.",
        footer = {"", "Examples:", "  blocklab models", "  blocklab run --workload hundred-calls --model forkjoin-managed:16 --spare-threads 64"})
final class ModelsCommand extends PrintingCommand {
    @Override void print(PrintWriter out) {
        int width = Math.max("model".length(), Models.catalog().stream().mapToInt(i -> i.syntax().length()).max().orElse(10));
        out.printf("%-" + width + "s  %-9s  %s%n", "model", "runs here", "what it does");
        for (Models.Info info : Models.catalog()) {
            out.printf("%-" + width + "s  %-9s  %s%s%n", info.syntax(), info.unavailable().isPresent() ? "no" : "yes", info.description(),
                    info.unavailable().map(r -> " (unavailable: " + r + ")").orElse(""));
        }
    }
}
