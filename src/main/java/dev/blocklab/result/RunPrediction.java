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
 * @param failuresCounted true when the formula already ended each request at its first failing call (a model that
 *                        fails fast, on a workload whose calls may fail): failures then explain no gap between the
 *                        measured figure and this one. Written only when true; results saved before it read false
 */
public record RunPrediction(double idealMillis, double predictedMillis, String predictionBasis,
                            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
                            boolean failuresCounted) {

    /** A prediction whose formula did not draw the calls' failures. */
    public RunPrediction(double idealMillis, double predictedMillis, String predictionBasis) {
        this(idealMillis, predictedMillis, predictionBasis, false);
    }
}
