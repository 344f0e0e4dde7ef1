package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import dev.blocklab.capacity.Capacity;
import dev.blocklab.capacity.CapacityReport;
import dev.blocklab.capacity.Entries;
import dev.blocklab.capacity.Entry;
import dev.blocklab.capacity.Recommendation;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;

/** {@code blocklab capacity}: the highest open rate each entry sustains at the objectives. */
@Command(name = "capacity", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
        description = "Find the highest open rate each model, framework variant or server profile sustains while meeting every objective: "
                + "grow the rate until an objective breaks, then bisect; repeated runs per rate, median and range; the knee curve, "
                + "the cost per request there, and a ranked recommendation beside the predictions.",
        footer = {"", "Examples:",
                "  blocklab capacity --workload mixed --entry fixed:16 --entry virtual --entry cf-nonblocking:2 --slo 'success>=98%%'",
                "  blocklab capacity --workload examples/my-workload.yaml --entry virtual --slo 'success>=98%%' --max-rate 640/s",
                "  blocklab capacity --workload frameworks --entry invokeall:16 --entry reactor --entry virtual",
                "  blocklab capacity --workload profile-page --entry http:play-2.5/sync-blocking --slo 'p99<=1200ms'",
                "  blocklab capacity --workload profile-page --entry http:event-loop/async-non-blocking --slo 'p99<=1200ms'",
                "  blocklab capacity --workload hundred-calls --entry fixed:8 --slo 'p99<=1500ms' --repeats 1 --step 2s --format json",
                "  blocklab capacity --workload examples/slow-query.yaml --backend postgres --entry virtual --entry fixed:10"})
final class CapacityCommand implements Runnable {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = {"--entry", "--model"}, required = true, paramLabel = "ENTRY", split = ",",
            description = "A model (fixed:8, virtual; see 'blocklab models'), a framework variant (with --workload frameworks), or a server profile "
                    + "over HTTP on one of the talk's endpoints, with --workload profile-page: http:PROFILE/ENDPOINT (play-2.5, threads:N, virtual, event-loop; "
                    + "/sync-blocking, /async-blocking, /async-non-blocking). Repeat to compare.")
    List<String> entries;

    @picocli.CommandLine.Mixin SharedOptions.Format format = new SharedOptions.Format();

    @picocli.CommandLine.Mixin CapacityOptions search = new CapacityOptions();

    @picocli.CommandLine.Mixin OutputOptions output = new OutputOptions();

    @picocli.CommandLine.Mixin DatastoreOptions datastore = new DatastoreOptions();

    @Override public void run() {
        format.parse();
        search.backendArgs = datastore.args();
        refuseUnreachable(search, entries, "capacity");
        Measured measured = measure(spec, search, entries, output, datastore.settings(), "capacity");
        if (measured != null) format.print(spec, measured.result(), output.columns());   // null: stopped by Ctrl-C
    }

    /**
     * Refuses up front, before any run, a success objective that no entry can meet on this workload (its calls
     * fail by design more often), naming the command to run instead: a usage error (exit 2). The search would
     * otherwise stop wherever the first by-design failure happened to show, a rate that says nothing of the entries.
     */
    static void refuseUnreachable(CapacityOptions search, List<String> names, String command) {
        Workload w = search.workload();
        Entries.resolve(names, w);   // a bad entry is still named first
        var unreachable = dev.blocklab.capacity.Advice.unreachable(w.graph(), search.settings().slos());
        if (unreachable.isEmpty()) return;
        throw new Main.UsageException(unreachable.get().sentence(search.workload) + "\nRun instead: "
                + search.command(command, names).replace("'" + unreachable.get().objective().text() + "'",
                "'" + unreachable.get().suggested().text() + "'"));
    }

    /** The kind of the results file's line for each run of a search, written as it ends. */
    static final String STEP = "capacity-step";

    /** One run of a search as a flat row: its entry and phase, then what it measured. */
    private static com.fasterxml.jackson.databind.node.ObjectNode row(Capacity.Step step) {
        var mapper = dev.blocklab.report.Jsons.mapper();
        var row = mapper.createObjectNode().put("entry", step.entry()).put("phase", step.phase());
        row.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(step.measurement()));
        return row;
    }

    /**
     * The report (its notes led by {@code lead}), the entries ranked, and the lines the command put first, each made
     * once from the search.
     */
    record Measured(ExperimentResult result, Recommendation recommendation, List<String> lead) {}

    /** Resolves, runs, saves and returns the capacity result; shared with {@code advise}. */
    static Measured measure(picocli.CommandLine.Model.CommandSpec spec, CapacityOptions search, List<String> names,
                                    OutputOptions output, dev.blocklab.datastore.DatastoreSettings real, String command) {
        return measure(spec, search, names, output, real, command, ranked -> List.of());
    }

    /**
     * As above; {@code lead} makes, once, the lines put before the capacity result's own notes in what is saved,
     * drawn and returned ({@code advise}'s advice, so that a saved or drawn report keeps it).
     */
    static Measured measure(picocli.CommandLine.Model.CommandSpec spec, CapacityOptions search, List<String> names,
                            OutputOptions output, dev.blocklab.datastore.DatastoreSettings real, String command,
                            java.util.function.Function<Recommendation, List<String>> lead) {
        Workload w = search.workload();
        Capacity.Settings settings = search.settings();
        List<Entry> resolved = Entries.resolve(names, w);
        dev.blocklab.datastore.Datastores.check(w.graph(), real);   // a sql: or redis: step needs its server, as under run
        dev.blocklab.datastore.Datastores.checkUsed(w.graph(), real);
        DatastoreOptions.installed(real);
        boolean servers = real.postgres() || real.redis();
        if (servers)
            for (Entry e : resolved)
                if (e instanceof Entry.Http)
                    throw new IllegalArgumentException("--backend postgres and redis serve in-process entries only: " + e.name()
                            + " is a server profile, whose calls go to blocklab's HTTP backend");
        PrintWriter err = spec.commandLine().getErr();
        ConsoleProgress progress = new ConsoleProgress(err, output.quiet());
        ExperimentResult result;
        Recommendation ranked;
        List<String> leadLines;
        List<Capacity.EntryResult> results;
        // Ctrl-C mid-run: the driver stops the run (discarded), and the signal's hook and the servers' wait for the file
        java.util.concurrent.CountDownLatch kept = new java.util.concurrent.CountDownLatch(1);
        dev.blocklab.datastore.Datastores.keepUpUntil(kept);
        try (ResultsFile file = output.openResults(command);
             dev.blocklab.datastore.Datastores opened = servers ? dev.blocklab.datastore.Datastores.open(real, line -> { if (!output.quiet()) err.println(line); }) : null) {
            Capacity.Backends backends = opened == null ? Capacity.Backends.SIMULATED
                    : new Capacity.Backends(opened::newBackend, new dev.blocklab.datastore.PoolBounds(w.graph(), real), opened.describe());
            dev.blocklab.driver.InProcessDriver driver = Capacity.driver(backends);
            // each run streams to the file as it ends; Ctrl-C (SIGINT) or SIGTERM says what finished and where it is saved
            List<String> all = resolved.stream().map(Entry::name).toList();
            java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger(-1);   // read by the signal's thread
            // an attack (an http: entry) does not stop with the driver: then the hook does not wait, as before
            boolean inProcessOnly = resolved.stream().allMatch(e -> e instanceof Entry.InProcess);
            Thread interrupted = Interrupted.onSignal(command + "-interrupted", progress, err,
                    inProcessOnly ? Interrupted.stopAndAwait(driver, kept) : driver::stop, () -> {
                int at = running.get();
                return Interrupted.summary("entries", all, at, at, file, null);   // in order: those before it finished
            });
            try {
                results = Capacity.run(w, resolved, settings, progress, backends, driver, new Capacity.Listener() {
                    @Override public void started(String entry) { running.incrementAndGet(); }

                    @Override public void measured(Capacity.Step step) { file.write(STEP, row(step)); }
                });
            } catch (dev.blocklab.driver.InProcessDriver.Stopped stopped) {
                return null;   // the runs that ended are in the file; the signal's hook says so
            } finally {
                Interrupted.remove(interrupted);
            }
            progress.clear();
            ranked = Recommendation.of(results);
            leadLines = lead.apply(ranked);
            result = withLead(CapacityReport.of(w.name(), settings, results, ranked, search.command("capacity", names), Environment.current(),
                    backends.described()), leadLines);
            result.rows().forEach(row -> file.write("capacity", row));
            file.writeResult(result);
            output.console.saved(err, file);
        } finally {
            kept.countDown();
            dev.blocklab.datastore.Datastores.release(kept);
        }
        if (output.html() != null) {
            ReportCommand.writeHtml(output.html(), command + " " + w.name(), List.of(result), ReportCommand.now());
            output.console.saved(err, "HTML report", output.html());
        }
        return new Measured(result, ranked, leadLines);
    }

    /** {@code result} with {@code lead} before its own notes (those the notes already hold, such as the command, once). */
    static ExperimentResult withLead(ExperimentResult result, List<String> lead) {
        if (lead.isEmpty()) return result;
        List<String> notes = new java.util.ArrayList<>(lead.stream().filter(l -> !result.notes().contains(l)).toList());
        notes.addAll(result.notes());
        return new ExperimentResult(result.experiment(), result.description(), result.scale(), result.environment(),
                result.rows(), result.tables(), notes, result.charts());
    }
}
