package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import dev.blocklab.datastore.DatastoreSettings;
import dev.blocklab.datastore.Datastores;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.report.LabelledRun;
import dev.blocklab.report.RunCharts;
import dev.blocklab.report.RunTables;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.registry.Registry;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code blocklab run}: one workload under one or more models, in process. */
@Command(name = "run", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
        description = "Run a workload under one or more models in this process and report latency, throughput, threads, CPU, memory and context switches beside the prediction.",
        footer = {"", "Examples:",
                "  blocklab run --workload hundred-calls --model fixed:8 --model virtual",
                "  blocklab run --workload hundred-calls --model fixed:8 --model virtual --time-scale 10 --html run.html",
                "  blocklab run --workload examples/my-workload.yaml --model fixed:8 --model virtual --format json",
                "  blocklab run --workload ten-thousand-jobs --model virtual --requests 1000000 --repeats 1",
                "  blocklab run --workload mixed --model cf-nonblocking:2 --rate 500/s --duration 10s",
                "  blocklab run --workload hundred-calls --model virtual --rate 100/s..5000/s --duration 20s --time-scale 10",
                "  blocklab run --workload hundred-calls --model fixed:50 --rate 100/s,500/s,1000/s --step 5s --duration 15s",
                "  blocklab run --workload profile-page --model fixed:200 --users 50 --duration 20s --time-scale 10",
                "  blocklab run --workload examples/slow-query.yaml --backend postgres --model virtual --model cf-nonblocking:2",
                "  blocklab run --workload examples/redis-gets.yaml --backend redis --model fixed:8 --redis-pool 4",

                "  blocklab run --workload hundred-calls --model forkjoin:4 --time-scale 10 --audit --fail-if 'misuse>0'",
                "  blocklab run --workload frameworks --model reactor --model invokeall:16 --model virtual --time-scale 10"})
final class RunCommand extends MeasuringCommand {
    @Option(names = "--workload", required = true, paramLabel = "NAME|FILE",
            description = "A built-in workload (see 'blocklab workloads'), frameworks (seed 002's use case, for the framework variants) or a YAML/JSON workload file.")
    String workload;

    @Option(names = "--model", required = true, paramLabel = "MODEL", split = ",",
            description = "A model such as fixed:8 or virtual, or a framework variant such as reactor (frameworks workload only; see 'blocklab models'); "
                    + "repeat, or separate with commas, to compare.")
    List<String> models;

    @picocli.CommandLine.Mixin ArrivalOptions arrival = new ArrivalOptions();

    @picocli.CommandLine.Mixin RunOptions run = new RunOptions();

    @picocli.CommandLine.Mixin SharedOptions.Format format = new SharedOptions.Format();

    @picocli.CommandLine.Mixin OutputOptions output = new OutputOptions();

    @picocli.CommandLine.Mixin DatastoreOptions datastore = new DatastoreOptions.WithFormerDb();

    @picocli.CommandLine.Mixin AuditOptions audit = new AuditOptions();

    @Override AuditOptions audit() { return audit; }

    @Override public void run() {
        format.parse();
        Workload resolved = Registry.workload(workload);
        Workload w = resolved.withArrival(arrival.arrival(resolved.arrival()));
        List<ModelSpec> specs = models.stream().map(Registry::parse).map(m -> m.check(w)).toList();   // parsed once, here
        RunSettings settings = run.settings();
        PrintWriter err = spec.commandLine().getErr();
        String source = arrival.requests != null ? "--requests " + arrival.requests   // what set the arrival, for the checks' errors
                : arrival.users != null ? "--users " + arrival.users : "workload " + w.name() + "'s " + w.arrival().label();
        if (!specs.stream().allMatch(ModelSpec::runsOnCaller))   // a batch is in flight at once but under sequential
            ArrivalOptions.checkBatchFits(w.arrival(), source, Runtime.getRuntime().maxMemory(),
                    specs.stream().filter(ModelSpec::threadPerRequest).map(ModelSpec::text).toList());
        ArrivalOptions.checkThreadsFit(w.arrival(), source, specs, dev.blocklab.driver.ThreadLimit.current());
        DatastoreSettings real = datastore.settings();
        Datastores.check(w.graph(), real);
        Datastores.checkUsed(w.graph(), real);
        DatastoreOptions.installed(real);
        ConsoleProgress console = output.console.progress(err);
        OverallProgress progress = new OverallProgress(console, System::nanoTime, "model", models, estimates(w, specs, settings, real));
        List<RunResult> results = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> poolNotes = new ArrayList<>();
        ExperimentResult result;
        // Ctrl-C mid-model: the driver stops the model, which keeps what completed; the signal's hook waits for it to be saved
        java.util.concurrent.CountDownLatch kept = new java.util.concurrent.CountDownLatch(1);
        String[] partial = {""};   // what the stopped model kept, for the signal's summary
        dev.blocklab.audit.Auditor auditor = audit.start();
        Datastores.keepUpUntil(kept);   // the servers' own shutdown hooks wait for it too
        try {
            try (auditor; ResultsFile file = output.openResults("run");
                 Datastores servers = real.postgres() || real.redis() ? Datastores.open(real, line -> { if (!output.quiet()) err.println(line); }) : null) {
                InProcessDriver driver = servers == null ? new InProcessDriver() : new InProcessDriver(servers::newBackend);
                // Ctrl-C (or SIGTERM) mid-run: say what is already on disk
                java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger(-1);   // read by the signal's thread
                Thread interrupted = Interrupted.onSignal("run-interrupted", console, err, Interrupted.stopAndAwait(driver, kept), () -> {
                    int finished = (int) results.stream().filter(r -> r.interrupted() == null).count();
                    int at = running.get();   // a model that had ended before the signal is finished, not running
                    return Interrupted.summary("models", models, finished, at < finished ? -1 : at, partial[0], file, null);
                });
                try {
                    for (int index = 0; index < specs.size() && !driver.stopRequested(); index++) {
                        ModelSpec m = specs.get(index);
                        running.set(index);
                        progress.begin(index);
                        RunResult r;
                        try {
                            r = servers == null ? driver.run(w, m, settings, progress)
                                    : driver.run(w, m.text(), DatastoreNotes.poolBound(w, m, real), settings, progress);
                        } catch (InProcessDriver.Stopped e) {
                            partial[0] = e.getMessage();
                            break;
                        } catch (OutOfMemoryError e) {
                            throw new Main.UsageException("out of memory running " + m + " (" + e.getMessage() + "); " + (results.isEmpty()
                                    ? "nothing saved" : results.size() + " of " + Words.count(models.size(), "run") + " saved to " + file.path()));
                        }
                        progress.end();
                        file.write("run", r);
                        results.add(r);
                        if (servers != null) poolNotes.addAll(DatastoreNotes.forRun(w, m, r, servers, settings.timeScaleDivisor()));
                        if (r.interrupted() != null) {
                            partial[0] = m + " stopped after " + r.interrupted().sentText() + ", its " + r.counts().requests() + " completed kept";
                            break;
                        }
                        if (driver.stopRequested() && r.repeats().count() < settings.repeats()) {   // stopped in a later repeat
                            partial[0] = m + " kept " + r.repeats().count() + " of its " + settings.repeats() + " repeats, those that ended";
                            break;
                        }
                    }
                } finally {
                    Interrupted.remove(interrupted);
                }
                console.clear();
                if (results.isEmpty()) return;   // stopped before any model measured anything: the hook says so
                result = result(w, results, servers == null ? "" : "; " + servers.describe(), poolNotes);
                if (auditor != null) {
                    dev.blocklab.audit.AuditResult audited = audit.finish(auditor, file);
                    result = audited.appendTo(result);
                    audit.exitCode(audited, err);
                }
                file.writeResult(result);
                file.writePageTitle("run " + w.name());
                output.console.saved(err, file);
            }
            if (output.html() != null) {
                ReportCommand.writeHtml(output.html(), "run " + w.name(), List.of(result), ReportCommand.now());
                output.console.saved(err, "HTML report", output.html());
            }
            format.print(spec, result, output.columns());
        } finally {
            kept.countDown();
            Datastores.release(kept);
        }
    }

    /**
     * Each model's expected time for the progress line: its predicted wall time (the model's formula) times its
     * warm-ups and repeats, bound by the database pool as the run's own prediction is; 0 (no estimate) where the
     * prediction cannot be made.
     */
    static long[] estimates(Workload w, List<ModelSpec> specs, RunSettings settings, DatastoreSettings real) {
        long[] nanos = new long[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            ModelSpec m = specs.get(i);
            long runs = settings.warmups() + settings.repeats();
            switch (w.arrival()) {   // a rate or users for a duration: the duration, whatever the model
                case Arrival.Open o -> { nanos[i] = o.durationNanos() / settings.timeScaleDivisor() * runs; continue; }
                case Arrival.Closed c -> { nanos[i] = c.durationNanos() / settings.timeScaleDivisor() * runs; continue; }
                case Arrival.Batch b -> { }
            }
            try {
                double millis = InProcessDriver.byDeadline(real.postgres() || real.redis()
                        ? InProcessDriver.predictFromFormula(w, DatastoreNotes.poolBoundFormula(w, m, real, settings.spareThreads()), m.failsFast(), settings)
                        : InProcessDriver.predict(w, m, settings), settings).millis();
                nanos[i] = Double.isFinite(millis) && millis > 0 ? (long) (millis * 1e6 * runs) : 0;
            } catch (RuntimeException e) {
                nanos[i] = 0;
            }
        }
        return nanos;
    }

    private ExperimentResult result(Workload w, List<RunResult> results, String servers, List<String> poolNotes) {
        String subject = w.name() + ", " + w.arrival().label();
        List<LabelledRun> labelled = LabelledRun.byModel(results);
        List<String> notes = new ArrayList<>(notes(results));
        notes.addAll(poolNotes);
        List<Table> tables = new ArrayList<>(List.of(RunTables.runs(subject, results), RunTables.predictions(subject + ": prediction beside measurement", labelled)));
        RunTables.failures(subject + ": how requests failed", labelled).ifPresent(tables::add);
        return new ExperimentResult("run", w.name() + ": " + w.description(), dev.blocklab.experiment.ExperimentSettings.delays(run.scale.timeScale) + servers, Environment.current(),
                results, tables, notes, RunCharts.standard(w.name(), labelled));
    }

    private static List<String> notes(List<RunResult> results) {
        List<String> notes = new ArrayList<>();
        for (RunResult r : results) {
            notes.add(r.model() + ": " + RunTables.deviation(r) + (r.resources().leftoverThreads() > 0 ? "; " + Words.count(r.resources().leftoverThreads(), "platform thread") + " outlived the model" : ""));
            notes.addAll(RunTables.failureNotes(r.model(), r));
        }
        notes.add("Wall time from first submit to last completion (System.nanoTime); latency from each request's intended start; "
                + "CPU and context switches from getrusage for the whole process, over the same window; peak threads are live platform threads (virtual threads excluded); "
                + "RSS and OS threads sampled every 10 ms; each prediction's formula is in the JSON field predictionBasis.");
        if (results.stream().anyMatch(r -> r.arrivalKind() == dev.blocklab.result.ArrivalKind.OPEN))
            notes.add("Open arrivals (open loop): requests are sent on their schedule whatever the model answers, and latency counts "
                    + "from each request's due time, so a model that falls behind shows its queue; req/s is completions over the wall "
                    + "time, the drain after the last send included.");
        if (results.stream().anyMatch(r -> r.arrivalKind() == dev.blocklab.result.ArrivalKind.CLOSED))
            notes.add("Closed arrivals (closed loop): each user sends its next request when its last one answered, so a slower model "
                    + "is offered less load and no queue forms ahead of the users; latency counts from each send, and the mean latency is "
                    + "about users / req/s. Use an open rate (--rate) to see queueing.");
        return notes;
    }
}
