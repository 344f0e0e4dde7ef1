/**
 * Immutable results: what a run measured ({@link dev.blocklab.result.RunResult}), what an experiment produced
 * ({@link dev.blocklab.result.ExperimentResult}), the machine it ran on ({@link dev.blocklab.result.Environment})
 * and the charts it asks reports to draw ({@link dev.blocklab.result.Chart}: data only, drawn by the HTML
 * report). Reports only ever see these records. Every field name carries its unit ({@code wallMillis},
 * {@code allocatedBytes}); latencies are counted from the intended start of a request.
 */
package dev.blocklab.result;
