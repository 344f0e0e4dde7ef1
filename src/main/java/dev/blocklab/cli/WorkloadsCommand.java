package dev.blocklab.cli;

import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Workload;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/** {@code blocklab workloads}: the built-in workloads. */
@Command(name = "workloads", mixinStandardHelpOptions = true, description = "List the built-in workloads; a YAML or JSON file of your own works wherever a name does (see README).",
        footer = {"", "Examples:", "  blocklab workloads", "  blocklab run --workload mixed --model virtual"})
final class WorkloadsCommand extends PrintingCommand {
    @Override void print(PrintWriter out) {
        int width = BuiltInWorkloads.all().stream().mapToInt(w -> w.name().length()).max().orElse(10);
        for (Workload w : BuiltInWorkloads.all()) {
            int calls = w.graph().callCount();
            out.printf("%-" + width + "s  %s (%s, %d call%s, critical path %.0f ms)%n", w.name(), w.description(),
                    w.arrival().label(), calls, calls == 1 ? "" : "s", w.graph().criticalPathNanos() / 1e6);
        }
    }
}
