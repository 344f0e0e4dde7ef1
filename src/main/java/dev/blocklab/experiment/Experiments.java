package dev.blocklab.experiment;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** The one registry of experiments, in the order {@code blocklab reproduce} runs them. */
public final class Experiments {
    private static final List<Experiment> ALL = List.of(
            new TaskGraphExperiment(),
            new HundredCallsExperiment(),
            new TenThousandJobsExperiment(),
            new ThreadSwitchExperiment(),
            new ProfilePageExperiment(),
            new ProfilePagePekkoExperiment(),
            new FrameworksExperiment(),
            new FrameworksCapacityExperiment(),
            new FrameworksServletExperiment(),
            new OverheadExperiment(),
            new HundredThousandCallsExperiment(),
            new DatabaseExperiment(),
            new MisuseExperiment(),
            new FailuresExperiment(),
            new RetriesExperiment(),

            new MillionJobsExperiment());

    /** The in-process experiments {@code blocklab reproduce} runs when no name is given. */
    private static final List<String> DEFAULT = List.of("task-graph", "hundred-calls", "ten-thousand-jobs");

    private Experiments() {}

    public static List<Experiment> all() { return ALL; }

    public static List<Experiment> defaults() {
        return ALL.stream().filter(e -> DEFAULT.contains(e.name())).toList();
    }

    public static Optional<Experiment> named(String name) {
        return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The experiment of that name; throws naming the known ones otherwise. */
    public static Experiment require(String name) {
        return named(name).orElseThrow(() -> new IllegalArgumentException("unknown experiment '" + name + "'"
                + dev.blocklab.Names.didYouMean(name, ALL.stream().map(Experiment::name).toList()) + " (known: " + ALL.stream().map(Experiment::name).collect(Collectors.joining(", ")) + ")"));
    }
}
