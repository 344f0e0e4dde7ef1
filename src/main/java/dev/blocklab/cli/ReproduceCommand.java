package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import dev.blocklab.experiment.Experiment;
import dev.blocklab.experiment.ExperimentSettings;
import dev.blocklab.experiment.Experiments;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** {@code blocklab reproduce}: the seed articles' experiments, beside their figures. */
@Command(name = "reproduce", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
        description = {"Reproduce the seed articles' experiments and print each measured figure beside the prediction and the article's figure.",
                "Without a name: task-graph, hundred-calls and ten-thousand-jobs at quick scale (about a minute)."},
        footer = {"", "Experiments: task-graph, hundred-calls, ten-thousand-jobs (the default three, in process),",
                "  thread-switch, profile-page (HTTP server and load generator), profile-page-pekko, frameworks,", "  frameworks-capacity, frameworks-servlet (Tomcat + Jersey beside the in-process variants),",
                "  overhead, hundred-thousand-calls, million-jobs, database, misuse (the auditor's showcase),",
                "  failures (who cancels, who leaks work), retries (what retries and hedges buy and cost)", "", "Examples:",
                "  blocklab reproduce",
                "  blocklab reproduce hundred-calls --full",
                "  blocklab reproduce --quick --html report.html",
                "  blocklab reproduce ten-thousand-jobs --format json",
                "  blocklab reproduce task-graph --format csv > task-graph.csv",
                "  blocklab reproduce thread-switch --quick",
                "  blocklab reproduce profile-page",
                "  blocklab reproduce profile-page-pekko --time-scale 1",
                "  blocklab reproduce frameworks --quick",
                "  blocklab reproduce frameworks --quick --backend http",
                "  blocklab reproduce frameworks-capacity --quick",
                "  blocklab reproduce frameworks-capacity --quick --backend http",
                "  blocklab reproduce frameworks-servlet",
                "  blocklab reproduce hundred-thousand-calls",
                "  blocklab reproduce million-jobs --full",
                "  blocklab reproduce database          # starts an embedded PostgreSQL and redis-server",
                "  blocklab reproduce misuse",
                "  blocklab reproduce failures",
                "  blocklab reproduce retries",
                "  blocklab reproduce frameworks --quick --audit --fail-if 'misuse>0'"})
final class ReproduceCommand extends MeasuringCommand {
    @Parameters(arity = "0..1", paramLabel = "NAME", description = "The experiment; the default three (task-graph, hundred-calls, ten-thousand-jobs) when omitted.")
    String name;

    @ArgGroup(exclusive = true)
    Scale scale = new Scale();

    static final class Scale {
        @Option(names = "--quick", description = "Delays divided by " + dev.blocklab.Defaults.QUICK_TIME_SCALE + ", fewer repeats (the default).") boolean quick;
        @Option(names = "--full", description = "The articles' real delays (time scale 1) and repeat counts; takes minutes.") boolean full;
    }

    @picocli.CommandLine.Mixin SharedOptions.TimeScale timeScale = new SharedOptions.TimeScale();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text, json, csv or html (one page of every experiment, at the end; default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--backend", paramLabel = "KIND", defaultValue = "simulated",
            description = "Where the downstream calls go: simulated (in process, no sockets) or http (a backend server "
                    + "started in this process on 127.0.0.1, called over real sockets). Accepted by frameworks, frameworks-capacity and frameworks-servlet only "
                    + "(default: ${DEFAULT-VALUE}).")
    String backend;

    @picocli.CommandLine.Mixin OutputOptions output = new OutputOptions();

    @picocli.CommandLine.Mixin AuditOptions audit = new AuditOptions();

    @Override AuditOptions audit() { return audit; }

    private static String pageTitle(List<ExperimentResult> done) {
        return "reproduce " + String.join(", ", done.stream().map(ExperimentResult::experiment).toList());
    }

    @Override public void run() {
        ReportFormat reportFormat = ReportFormat.parse(format);
        List<Experiment> experiments = name == null ? Experiments.defaults() : List.of(Experiments.require(name));
        ExperimentSettings.CallBackend calls = ExperimentSettings.CallBackend.parse(backend);
        if (calls != ExperimentSettings.CallBackend.SIMULATED)
            for (Experiment e : experiments)
                if (!e.choosesBackend())
                    throw new IllegalArgumentException("--backend " + backend + ": only "
                            + Words.inWords(Experiments.all().stream().filter(Experiment::choosesBackend).map(Experiment::name).toList())
                            + " choose their backend, not " + (name == null ? "the default experiments" : e.name()));
        if (name != null && Flags.given(spec, "--time-scale") && !experiments.getFirst().usesTimeScale() && !output.quiet())
            spec.commandLine().getErr().println("blocklab: --time-scale does not apply to " + name + ": it has no delays to divide (it runs in real time)");
        // --full means real time unless --time-scale is given; the default (quick) is CommandDefaults' divisor
        long divisor = scale.full && !Flags.given(spec, "--time-scale")
                ? dev.blocklab.Defaults.TIME_SCALE : timeScale.timeScale;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConsoleProgress console = output.console.progress(err);
        // overall progress: each experiment's duration the last time it ran at this scale estimates the time left
        DurationHistory history = DurationHistory.load();
        List<String> historyKeys = experiments.stream().map(e -> "reproduce." + e.name() + ".delays-" + divisor + "." + backend).toList();
        OverallProgress progress = new OverallProgress(console, System::nanoTime, "experiment",
                experiments.stream().map(Experiment::name).toList(), historyKeys.stream().mapToLong(history::nanos).toArray());
        Environment env = Environment.current();
        new ExperimentSettings(scale.full, divisor, console, row -> {}, env, calls);   // validates before a file is opened
        List<ExperimentResult> done = new java.util.concurrent.CopyOnWriteArrayList<>();
        String reportedAt = ReportCommand.now();
        dev.blocklab.audit.Auditor auditor = audit.start();
        try (auditor; ResultsFile file = output.openResults("reproduce")) {
            // Ctrl-C (SIGINT) or SIGTERM mid-run: say what finished and where it is saved
            java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger(-1);   // read by the signal's thread
            Thread interrupted = Interrupted.onSignal("reproduce-interrupted", console, err, () -> Interrupted.summary("experiments",
                    experiments.stream().map(Experiment::name).toList(), done.size(), running.get(), file, output.html()));
            try {
            for (int index = 0; index < experiments.size(); index++) {
                Experiment experiment = experiments.get(index);
                running.set(index);
                if (!output.quiet()) err.println("running " + experiment.name() + ": " + experiment.description());
                progress.begin(index);
                ExperimentSettings settings = new ExperimentSettings(scale.full, divisor, progress,
                        row -> file.write(experiment.name(), row), env, calls);
                ExperimentResult result;
                try {
                    result = auditor == null ? experiment.run(settings) : auditor.during(experiment.name(), () -> experiment.run(settings));
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(experiment.name() + " failed: " + e.getMessage(), e);
                }
                history.record(historyKeys.get(index), progress.end());
                console.clear();
                file.writeResult(result);
                done.add(result);
                file.writePageTitle(pageTitle(done));
                if (output.html() != null) ReportCommand.writeHtml(output.html(), pageTitle(done), done, reportedAt);
                if (reportFormat != ReportFormat.HTML) {   // html: one page of every experiment at the end
                    out.print(reportFormat.create(output.columns()).render(result));
                    if (reportFormat == ReportFormat.TEXT) out.println();
                    out.flush();
                }
            }
            running.set(-1);
            } finally {
                Interrupted.remove(interrupted);
            }
            if (auditor != null) {
                dev.blocklab.audit.AuditResult audited = audit.finish(auditor, file);
                ExperimentResult result = audited.asExperimentResult(env);
                file.writeResult(result);
                done.add(result);
                file.writePageTitle(pageTitle(done));
                if (output.html() != null) ReportCommand.writeHtml(output.html(), pageTitle(done), done, reportedAt);
                if (reportFormat != ReportFormat.HTML) {
                    out.print(reportFormat.create(output.columns()).render(result));
                    out.flush();
                }
                audit.exitCode(audited, err);
            }
            if (reportFormat == ReportFormat.HTML) {
                out.print(new dev.blocklab.report.HtmlReport(reportedAt).renderPage(pageTitle(done), done));
                out.flush();
            }
            output.console.saved(err, file);
            if (output.html() != null) output.console.saved(err, "HTML report", output.html());
        }
    }
}
