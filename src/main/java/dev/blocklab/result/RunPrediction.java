package dev.blocklab.result;

/**
 * What theory said a run would take, before it ran.
 *
 * @param idealMillis     the critical path of one request at its calls' expected latencies, every call succeeding: the
 *                        least any model could take when nothing fails (a model that fails fast ends a failing request
 *                        sooner, and its prediction may be below this)
 * @param predictedMillis what the model's formula predicts: the batch's wall time for a batch arrival, one
 *                        request's time otherwise ({@link RunResult#measuredMillis()} is its measured counterpart)
 * @param predictionBasis the formula, in words; null where the model made none
 */
public record RunPrediction(double idealMillis, double predictedMillis, String predictionBasis) {}
