package dev.blocklab.cli;

import dev.blocklab.capacity.Advice;
import dev.blocklab.capacity.Recommendation;
import dev.blocklab.capacity.Slo;
import dev.blocklab.report.ReportFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;

/** {@code blocklab advise}: which model to use for a workload, and how far it goes, in plain words. */
@Command(name = "advise", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
        description = "Answer 'which model should I use for my workload, and how far will it go?' in plain words: a capacity search "
                + "over a few representative models at your objectives, the best one with its numbers, why each stops, and the command that reproduces it.",
        footer = {"", "Examples:",
                "  blocklab advise --workload examples/my-workload.yaml --slo 'success>=98%%'",
                "  blocklab advise --workload examples/my-workload.yaml --slo 'p99<=300ms' --slo 'success>=98%%'",
                "  blocklab advise --workload mixed --entry fixed:32 --entry virtual --slo 'success>=98%%' --step 2s --repeats 1",
                "  blocklab advise --workload mixed --slo 'success>=98%%' --format json > advice.json",
                "  blocklab advise --workload examples/slow-query.yaml --backend postgres --db-pool 20 --max-rate 800/s"})
final class AdviseCommand implements Runnable {
    /** One blocking pool, one thread per request, one non-blocking style: the three families that differ in where they stop. */
    static final List<String> DEFAULT_ENTRIES = List.of("fixed:16", "virtual", "cf-nonblocking:2");

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"--entry", "--model"}, paramLabel = "ENTRY", split = ",",
            description = "Compare these instead (models, or http:PROFILE/ENDPOINT; default: fixed:16, virtual, cf-nonblocking:2).")
    List<String> entries;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (the advice in plain words) or json (the advice, the entry it recommends and the whole capacity result) (default: ${DEFAULT-VALUE}).")
    String format;

    @picocli.CommandLine.Mixin CapacityOptions search = new CapacityOptions();

    @picocli.CommandLine.Mixin OutputOptions output = new OutputOptions();

    @picocli.CommandLine.Mixin DatastoreOptions datastore = new DatastoreOptions();

    /**
     * {@code advise --format json}: the advice and what it rests on.
     *
     * @param recommended        the entry ranked first, or null when none met the objectives at any rate
     * @param sustainedPerSecond that entry's highest rate meeting every objective (0 without one)
     * @param capacity           the capacity result, as {@code capacity --format json} prints it
     */
    record AdviceJson(String workload, List<String> objectives, String recommended, double sustainedPerSecond,
                      List<String> advice, String reproduce, com.fasterxml.jackson.databind.JsonNode capacity) {}

    @Override public void run() {
        boolean json = switch (format.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "text" -> false;
            case "json" -> true;
            default -> throw new IllegalArgumentException("--format: '" + format + "' is not one of text, json");
        };
        List<String> names = entries == null ? DEFAULT_ENTRIES : entries;
        search.backendArgs = datastore.args();
        CapacityCommand.refuseUnreachable(search, names, "advise");
        List<Slo> slos = search.settings().slos();
        String reproduce = search.command("capacity", names);
        // the advice, made once, leads the saved and drawn report's notes, so 'report' and --html keep it
        CapacityCommand.Measured measured = CapacityCommand.measure(spec, search, names, output, datastore.settings(), "advise",
                ranked -> Advice.lines(search.workload, slos, ranked, dev.blocklab.capacity.CapacityReport.searchNote(search.settings()), reproduce));
        if (measured == null) return;   // stopped by Ctrl-C: the signal's hook says what was saved
        PrintWriter out = spec.commandLine().getOut();
        Recommendation recommendation = measured.recommendation();
        List<String> advice = measured.lead();
        if (json) {
            var best = recommendation.ranked().isEmpty() ? null : recommendation.ranked().getFirst().result();
            double sustained = best == null ? 0 : best.search().sustainablePerSecond();
            var mapper = dev.blocklab.report.Jsons.mapper();
            try {
                out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(new AdviceJson(search.workload,
                        slos.stream().map(Slo::text).toList(), sustained > 0 ? best.entry() : null, sustained, advice, reproduce,
                        mapper.readTree(ReportFormat.JSON.create().render(measured.result())))));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("advise: cannot write JSON: " + e.getMessage(), e);
            }
        } else {
            for (String line : advice) {
                if (line.startsWith(REPRODUCE)) {   // the command continued as a shell reads it, to copy as it is
                    shellLines(REPRODUCE, line.substring(REPRODUCE.length()), TextWidth.columns(false)).forEach(out::println);
                } else {   // a sentence continues two spaces in, as the text reports' notes do
                    dev.blocklab.report.TextWrap.lines(line, TextWidth.columns(false), "  ").forEach(out::println);
                }
            }
        }
        out.flush();
    }

    private static final String REPRODUCE = "Reproduce: ";

    /**
     * {@code lead} and a command line, in lines of at most {@code width} columns, each but the last ending in
     * {@code " \\"} and the next indented four spaces; an option stays on one line with its value.
     */
    static List<String> shellLines(String lead, String command, int width) {
        List<String> groups = new java.util.ArrayList<>();
        for (String word : command.trim().split(" +")) {
            if (!groups.isEmpty() && !word.startsWith("-") && groups.getLast().startsWith("-") && !groups.getLast().contains(" "))
                groups.set(groups.size() - 1, groups.getLast() + " " + word);
            else groups.add(word);
        }
        List<String> lines = new java.util.ArrayList<>();
        StringBuilder line = new StringBuilder(lead);
        boolean fresh = true;   // nothing on this line yet but its lead or indent
        for (String group : groups) {
            if (!fresh && line.length() + 1 + group.length() + 2 > width) {
                lines.add(line + " \\");
                line = new StringBuilder("    ");
            } else if (!fresh) {
                line.append(' ');
            }
            line.append(group);
            fresh = false;
        }
        lines.add(line.toString());
        return lines;
    }
}
