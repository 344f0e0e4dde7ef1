package dev.blocklab.cli;

import dev.blocklab.capacity.Advice;
import dev.blocklab.capacity.Recommendation;
import dev.blocklab.capacity.Slo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;

/** {@code blocklab advise}: which model to use for a workload, and how far it goes, in plain words. */
@Command(name = "advise", mixinStandardHelpOptions = true,
        description = "Answer 'which model should I use for my workload, and how far will it go?' in plain words: a capacity search "
                + "over a few representative models at your objectives, the best one with its numbers, why each stops, and the command that reproduces it.",
        footer = {"", "Examples:",
                "  blocklab advise --workload my.yaml --slo 'success>=98%%'",
                "  blocklab advise --workload examples/my-workload.yaml --slo 'p99<=300ms' --slo 'success>=98%%'",
                "  blocklab advise --workload mixed --entry fixed:32 --entry virtual --slo 'success>=98%%' --step 2s --repeats 1"})
final class AdviseCommand implements Runnable {
    /** One blocking pool, one thread per request, one non-blocking style: the three families that differ in where they stop. */
    static final List<String> DEFAULT_ENTRIES = List.of("fixed:16", "virtual", "cf-nonblocking:2");

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"--entry", "--model"}, paramLabel = "ENTRY", split = ",",
            description = "Compare these instead (models, or http:PROFILE/ENDPOINT; default: fixed:16, virtual, cf-nonblocking:2).")
    List<String> entries;

    @picocli.CommandLine.Mixin CapacityOptions search = new CapacityOptions();

    @picocli.CommandLine.Mixin OutputOptions output = new OutputOptions();

    @Override public void run() {
        List<String> names = entries == null ? DEFAULT_ENTRIES : entries;
        if (CapacityCommand.unreachable(spec, search, names, "advise")) return;
        CapacityCommand.Measured measured = CapacityCommand.measure(spec, search, names, output, "advise");
        List<Slo> slos = search.settings().slos();
        PrintWriter out = spec.commandLine().getOut();
        Advice.lines(search.workload, slos, Recommendation.of(measured.entries()), search.command("capacity", names)).forEach(out::println);
        out.flush();
    }
}
