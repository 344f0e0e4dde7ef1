package dev.blocklab.cli;

import dev.blocklab.registry.Registry;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Workload;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code blocklab workloads}: the built-in workloads, and seed 002's use case that the framework variants run. */
@Command(name = "workloads", mixinStandardHelpOptions = true, description = "List the built-in workloads; a YAML or JSON file of your own works wherever a name does (see README).",
        footer = {"", "Examples:", "  blocklab workloads", "  blocklab run --workload mixed --model virtual",
                "  blocklab run --workload frameworks --model reactor --model virtual"})
final class WorkloadsCommand extends PrintingCommand {
    @Override void print(PrintWriter out) {
        List<Workload> all = new ArrayList<>(BuiltInWorkloads.all());
        all.add(Registry.workload(Registry.FRAMEWORKS_WORKLOAD));
        int width = all.stream().mapToInt(w -> w.name().length()).max().orElse(10);
        for (Workload w : all) {
            int calls = w.graph().callCount();
            String runs = w.name().equals(Registry.FRAMEWORKS_WORKLOAD) ? "; every model, and the only one the framework variants run" : "";
            hanging(out, String.format("%-" + width + "s  ", w.name()), String.format(java.util.Locale.ROOT, "%s (%s, %s, critical path %.0f ms%s)",
                    w.description(), w.arrival().label(), Words.count(calls, "call"), w.graph().criticalPathNanos() / 1e6, runs));
        }
    }
}
