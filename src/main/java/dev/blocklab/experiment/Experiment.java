package dev.blocklab.experiment;

import dev.blocklab.result.ExperimentResult;

/** A reproducible study, run by {@code blocklab reproduce NAME}. */
public interface Experiment {

    /** The name on the command line, e.g. {@code hundred-calls}. */
    String name();

    /** One line: what it reproduces, and from which article. */
    String description();

    /**
     * Whether {@link ExperimentSettings#backend()} changes what it runs: true where {@code --backend http} is
     * honoured (the frameworks comparison and its capacity search); the others always run their own set-up.
     */
    default boolean choosesBackend() { return false; }

    /**
     * Whether {@code --time-scale} changes what it runs; false where it has no delays to divide or measures in real
     * time whatever the scale (the engine's overhead, a million jobs, SQL on a real server).
     */
    default boolean usesTimeScale() { return true; }

    /**
     * Runs the experiment. Rows are handed to {@link ExperimentSettings#rowSink()} as they are measured, so an
     * interrupted run keeps what it had; progress goes to {@link ExperimentSettings#progress()}.
     */
    ExperimentResult run(ExperimentSettings settings) throws Exception;
}
