/**
 * Immutable results: what a run measured ({@link dev.blocklab.result.RunResult}, in small groups:
 * {@link dev.blocklab.result.Counts}, {@link dev.blocklab.result.Timing}, {@link dev.blocklab.result.Repeats},
 * {@link dev.blocklab.result.RunPrediction}, {@link dev.blocklab.result.Resources}, and the
 * {@link dev.blocklab.result.FirstFailure}), what an attack measured ({@link dev.blocklab.result.AttackResult}),
 * what an experiment produced ({@link dev.blocklab.result.ExperimentResult}), the machine it ran on
 * ({@link dev.blocklab.result.Environment}) and the charts it asks reports to draw
 * ({@link dev.blocklab.result.Chart}: data only, drawn by the HTML report). Groups that add up have {@code plus}.
 * Reports only ever see these records. Every field name carries its unit ({@code wallMillis},
 * {@code allocatedBytes}); latencies are counted from the intended start of a request.
 */
package dev.blocklab.result;
