package dev.blocklab.cli;

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
import java.nio.file.Path;
import java.util.List;

/** {@code blocklab reproduce}: the seed articles' experiments, beside their figures. */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"Reproduce the seed articles' experiments and print each measured figure beside the prediction and the article's figure.",
                "Without a name: task-graph, hundred-calls and ten-thousand-jobs at quick scale (about a minute)."},
        footer = {"", "Experiments: task-graph, hundred-calls, ten-thousand-jobs, thread-switch", "", "Examples:",
                "  blocklab reproduce",
                "  blocklab reproduce hundred-calls --full",
                "  blocklab reproduce ten-thousand-jobs --format json",
                "  blocklab reproduce task-graph --format csv > task-graph.csv"})
final class ReproduceCommand implements Runnable {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "The experiment; all in-process ones when omitted.")
    String name;

    @ArgGroup(exclusive = true)
    Scale scale = new Scale();

    static final class Scale {
        @Option(names = "--quick", description = "Delays divided by 10, fewer repeats (the default).") boolean quick;
        @Option(names = "--full", description = "The articles' real delays and repeat counts; takes minutes.") boolean full;
    }

    @Option(names = "--time-scale", paramLabel = "N", description = "Divide every delay by N (default: 10 quick, 1 full).")
    Long timeScale;

    @Option(names = "--format", defaultValue = "text", description = "text, json or csv (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--save", paramLabel = "FILE", description = "Stream rows to this JSON Lines file as they are measured (default: results/reproduce-<time>.jsonl).")
    Path save;

    @Option(names = "--quiet", description = "No progress on stderr.")
    boolean quiet;

    @Option(names = "--verbose", description = "Stack traces for errors.")
    boolean verbose;

    @Override public void run() {
        ReportFormat reportFormat = ReportFormat.parse(format);
        List<Experiment> experiments = name == null ? Experiments.defaults() : List.of(Experiments.require(name));
        long divisor = timeScale != null ? timeScale : scale.full ? 1 : ExperimentSettings.QUICK_TIME_SCALE;
        if (divisor < 1) throw new IllegalArgumentException("--time-scale must be at least 1, got " + divisor);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ConsoleProgress progress = new ConsoleProgress(err, quiet);
        Environment env = Environment.current();
        try (ResultsFile file = new ResultsFile(save != null ? save : ResultsFile.defaultPath("reproduce"))) {
            for (Experiment experiment : experiments) {
                if (!quiet) err.println("running " + experiment.name() + ": " + experiment.description());
                ExperimentSettings settings = new ExperimentSettings(scale.full, divisor, progress,
                        row -> file.write(experiment.name(), row), env);
                ExperimentResult result;
                try {
                    result = experiment.run(settings);
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(experiment.name() + " failed: " + e.getMessage(), e);
                }
                progress.clear();
                out.print(reportFormat.create().render(result));
                if (reportFormat == ReportFormat.TEXT) out.println();
                out.flush();
            }
            if (!quiet) err.println("rows saved to " + file.path());
        }
    }
}
