package dev.blocklab.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.Objects;

/**
 * What one run of one workload under one model measured. When a run was repeated, the record is the run of
 * median wall time, with the range over all repeats in {@link #repeats()}.
 *
 * <p>The figures come in small groups, each a record with its own clocks and sources: {@link Counts} (how the
 * requests ended), {@link Timing} (wall time, throughput, latency), {@link Repeats}, {@link RunPrediction} and
 * {@link Resources}. In JSON the groups are unwrapped, so a saved run is one flat object whose field names are
 * those of the groups' components ({@code requests}, {@code wallMillis}, {@code latencyMillis}, ...), the layout
 * results have always been saved in.
 *
 * @param model            the model's name with parameters
 * @param workload         the workload's name
 * @param arrival          the arrival pattern's label, e.g. {@code batch 1000}
 * @param arrivalKind      the arrival pattern's kind; read from a file saved without it, taken from the label
 * @param timeScaleDivisor every delay was divided by this
 * @param answer           the value the first successful request returned, or null
 * @param counts           how the requests ended
 * @param timing           wall time, throughput and latency
 * @param repeats          the wall-time range of the repeats this run is the median of
 * @param prediction       what theory predicted
 * @param resources        what the run cost the process
 * @param firstFailure     the first failure recorded, with the top of its stack; null (and absent from JSON)
 *                         when nothing failed
 * @param failureScore     how requests failed and what they left running ({@link FailureScore#NOT_MEASURED}
 *                         when the run could not fail)
 * @param backendCalls     calls the backend started during the run, retries and hedges included (0 where not
 *                         counted: a result saved before it was)
 * @param interrupted      how far the run got when it was stopped before its end (Ctrl-C); null (and absent from
 *                         JSON) for a run that ran to its end
 * @param pools            what each connection pool of a real PostgreSQL or Redis did in this run, one per client
 *                         the run used, in the backend's order; empty (and absent from JSON) for a run without one,
 *                         and read as empty from a file saved before it was recorded
 */
public record RunResult(String model, String workload, String arrival, ArrivalKind arrivalKind, long timeScaleDivisor,
                        Object answer,
                        @JsonUnwrapped Counts counts,
                        @JsonUnwrapped Timing timing,
                        @JsonUnwrapped @JsonProperty("repeatRange") Repeats repeats,
                        @JsonUnwrapped RunPrediction prediction,
                        @JsonUnwrapped Resources resources,
                        @JsonInclude(JsonInclude.Include.NON_NULL) FirstFailure firstFailure,
                        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = FailureScore.NotMeasured.class)
                        FailureScore failureScore,
                        long backendCalls,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Interruption interrupted,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) java.util.List<PoolStats> pools) {

    public RunResult {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(arrival, "arrival");
        if (arrivalKind == null) arrivalKind = ArrivalKind.ofLabel(arrival);
        if (timeScaleDivisor < 1) throw new IllegalArgumentException("the time-scale divisor must be >= 1, got " + timeScaleDivisor);
        Objects.requireNonNull(counts, "counts");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(repeats, "repeats");
        Objects.requireNonNull(prediction, "prediction");
        Objects.requireNonNull(resources, "resources");
        if (failureScore == null) failureScore = FailureScore.NOT_MEASURED;   // results written before it existed
        if (backendCalls < 0) throw new IllegalArgumentException("backend calls must be >= 0, got " + backendCalls);
        pools = pools == null ? java.util.List.of() : java.util.List.copyOf(pools);   // null: saved before pools were
    }

    /** A run without connection pools. */
    public RunResult(String model, String workload, String arrival, ArrivalKind arrivalKind, long timeScaleDivisor,
                     Object answer, Counts counts, Timing timing, Repeats repeats, RunPrediction prediction,
                     Resources resources, FirstFailure firstFailure, FailureScore failureScore, long backendCalls,
                     Interruption interrupted) {
        this(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, repeats, prediction,
                resources, firstFailure, failureScore, backendCalls, interrupted, java.util.List.of());
    }

    /** A run that ran to its end. */
    public RunResult(String model, String workload, String arrival, ArrivalKind arrivalKind, long timeScaleDivisor,
                     Object answer, Counts counts, Timing timing, Repeats repeats, RunPrediction prediction,
                     Resources resources, FirstFailure firstFailure, FailureScore failureScore, long backendCalls) {
        this(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, repeats, prediction,
                resources, firstFailure, failureScore, backendCalls, null);
    }

    /** A run whose backend calls were not counted. */
    public RunResult(String model, String workload, String arrival, ArrivalKind arrivalKind, long timeScaleDivisor,
                     Object answer, Counts counts, Timing timing, Repeats repeats, RunPrediction prediction,
                     Resources resources, FirstFailure firstFailure, FailureScore failureScore) {
        this(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, repeats, prediction,
                resources, firstFailure, failureScore, 0);
    }

    /** A run whose failures were not scored. */
    public RunResult(String model, String workload, String arrival, ArrivalKind arrivalKind, long timeScaleDivisor,
                     Object answer, Counts counts, Timing timing, Repeats repeats, RunPrediction prediction,
                     Resources resources, FirstFailure firstFailure) {
        this(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, repeats, prediction,
                resources, firstFailure, FailureScore.NOT_MEASURED);
    }

    /** True for a batch arrival, whose prediction is the batch's wall time; otherwise it is one request's time. */
    public boolean predictsWallTime() { return arrivalKind == ArrivalKind.BATCH; }

    /**
     * The measured figure that {@code predictedMillis} predicts: the wall time for a batch, the mean latency
     * for open and closed arrivals (where the prediction is one request's time).
     */
    public double measuredMillis() { return predictsWallTime() ? timing.wallMillis() : timing.latencyMillis().mean(); }

    /** Successes over completed requests, in [0, 1]. */
    public double successRatio() { return counts.successRatio(); }

    /** This run with the wall-time range and count of a group of repeats. */
    public RunResult withRepeats(Repeats group) {
        return new RunResult(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, group,
                prediction, resources, firstFailure, failureScore, backendCalls, interrupted, pools);
    }

    /** This run, stopped before its end after sending {@code sent} of {@code planned} requests. */
    public RunResult interruptedAfter(long sent, long planned) {
        return new RunResult(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, repeats,
                prediction, resources, firstFailure, failureScore, backendCalls, new Interruption(sent, planned), pools);
    }

    /** This run with the figures of the connection pools it used. */
    public RunResult withPools(java.util.List<PoolStats> used) {
        return new RunResult(model, workload, arrival, arrivalKind, timeScaleDivisor, answer, counts, timing, repeats,
                prediction, resources, firstFailure, failureScore, backendCalls, interrupted, used);
    }

    /** Backend calls per completed request (retries and hedges make it more than the graph's calls); NaN where not counted. */
    public double backendCallsPerRequest() {
        return backendCalls == 0 || counts.requests() == 0 ? Double.NaN : (double) backendCalls / counts.requests();
    }
}
