package dev.blocklab.cli;

import dev.blocklab.model.ModelEntry;
import dev.blocklab.registry.Registry;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** {@code blocklab models}: everything that can run a workload, from the one registry. */
@Command(name = "models", mixinStandardHelpOptions = true,
        description = {"List everything 'blocklab run --model' accepts: the engine's concurrency models (kind 'model', any workload) "
                + "and seed 002's framework variants (kind 'variant', the frameworks workload only).",
                "Columns: 'model' (the syntax, N a thread or I/O pool size), 'kind', 'runs here' (no when this JVM lacks "
                        + "what it needs, such as --enable-preview for structured) and 'what it does'."},
        footer = {"", "Examples:", "  blocklab models",
                "  blocklab run --workload hundred-calls --model forkjoin-managed:16 --spare-threads 64",
                "  blocklab run --workload frameworks --model reactor --model frameworks-virtual --time-scale 10"})
final class ModelsCommand extends PrintingCommand {
    @Override void print(PrintWriter out) {
        int width = Math.max("model".length(), Registry.all().stream().mapToInt(i -> i.syntax().length()).max().orElse(10));
        String row = "%-" + width + "s  %-7s  %-9s  ";
        out.println(String.format(row, "model", "kind", "runs here") + "what it does");
        for (ModelEntry entry : Registry.all()) {
            hanging(out, String.format(row, entry.syntax(), entry.kind().label(), entry.unavailable().isPresent() ? "no" : "yes"),
                    entry.description() + entry.unavailable().map(r -> " (unavailable: " + r + ")").orElse(""));
        }
    }
}
