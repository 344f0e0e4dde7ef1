/**
 * Immutable results: what a run measured ({@link dev.blocklab.result.RunResult}), what an experiment produced
 * ({@link dev.blocklab.result.ExperimentResult}) and the machine it ran on
 * ({@link dev.blocklab.result.Environment}). Reports only ever see these records. Every field name carries its
 * unit ({@code wallMillis}, {@code allocatedBytes}); latencies are counted from the intended start of a request.
 */
package dev.blocklab.result;
