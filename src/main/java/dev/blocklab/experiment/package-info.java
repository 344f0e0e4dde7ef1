/**
 * Experiments: named, reproducible studies built from the pipeline (workload, model, driver, result). Each
 * {@link dev.blocklab.experiment.Experiment} returns an immutable
 * {@link dev.blocklab.result.ExperimentResult} with typed rows, tables and one note per difference from the
 * article it reproduces. They are registered in {@link dev.blocklab.experiment.Experiments}.
 */
package dev.blocklab.experiment;
