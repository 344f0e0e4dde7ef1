package dev.blocklab.result;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one run of one workload under one model measured. When a run was repeated, the record is the run of
 * median wall time, with the range over all repeats in {@code wallMillisMin}/{@code wallMillisMax}.
 *
 * <p>Clocks and sources: wall time by {@link System#nanoTime()} from the first submit to the last completion;
 * latencies from each request's intended start; CPU time and context switches from {@code getrusage} for the
 * whole process (GC and JIT threads included); allocation is the JVM-wide total
 * ({@code ThreadMXBean.getTotalThreadAllocatedBytes}, virtual threads included); platform threads are the JVM's
 * live-thread peak (virtual threads excluded); OS threads and RSS are sampled from {@code /proc/self/status}
 * every 10 ms.
 *
 * @param model                  the model's name with parameters
 * @param workload               the workload's name
 * @param arrival                the arrival pattern's label
 * @param timeScaleDivisor       every delay was divided by this
 * @param answer                 the value the first successful request returned, or null
 * @param requests               requests that completed (in any way)
 * @param failureCauses          {@code Type: message} of each failure with its count, sorted
 * @param wallMillis             wall time of the run
 * @param idealMillis            the critical path of one request: the least any model could take
 * @param predictedMillis        what theory predicts for this model ({@link #measuredMillis()} is its measured
 *                               counterpart); {@code predictionBasis} says how
 * @param throughputPerSecond    requests completed per second of wall time
 * @param latencyHistogram       the latency HdrHistogram in nanoseconds, compressed and base64-encoded
 * @param peakPlatformThreads    JVM-wide peak of live platform threads during the run
 * @param peakOsThreads          peak OS threads of the process, sampled
 * @param platformThreadsStarted platform threads started during the run
 * @param leftoverThreads        platform threads started by the run and still alive after the model closed
 * @param cpuMillis              user plus system CPU time of the process
 * @param allocatedBytes         bytes allocated on the heap by all threads
 * @param peakRssBytes           peak resident memory of the process, sampled
 * @param failureScore           how requests failed and what they left running ({@link FailureScore#NOT_MEASURED}
 *                               when the run could not fail)
 */
public record RunResult(String model, String workload, String arrival, long timeScaleDivisor, Object answer,
                        long requests, long successes, long failures, long timeouts, long cancelled,
                        Map<String, Long> failureCauses,
                        double wallMillis, double wallMillisMin, double wallMillisMax, int repeats,
                        double idealMillis, double predictedMillis, String predictionBasis,
                        double throughputPerSecond, LatencyMillis latencyMillis, String latencyHistogram,
                        int peakPlatformThreads, int peakOsThreads, long platformThreadsStarted, int leftoverThreads,
                        double cpuMillis, ContextSwitches contextSwitches, long allocatedBytes, long peakRssBytes,
                        @com.fasterxml.jackson.annotation.JsonInclude(value = com.fasterxml.jackson.annotation.JsonInclude.Include.CUSTOM,
                                valueFilter = FailureScore.NotMeasured.class) FailureScore failureScore) {

    public RunResult {
        Objects.requireNonNull(model, "model");
        failureCauses = java.util.Collections.unmodifiableMap(new TreeMap<>(failureCauses));
        if (failureScore == null) failureScore = FailureScore.NOT_MEASURED;   // results written before it existed
    }

    /** A run whose failures were not scored. */
    public RunResult(String model, String workload, String arrival, long timeScaleDivisor, Object answer,
                     long requests, long successes, long failures, long timeouts, long cancelled,
                     Map<String, Long> failureCauses,
                     double wallMillis, double wallMillisMin, double wallMillisMax, int repeats,
                     double idealMillis, double predictedMillis, String predictionBasis,
                     double throughputPerSecond, LatencyMillis latencyMillis, String latencyHistogram,
                     int peakPlatformThreads, int peakOsThreads, long platformThreadsStarted, int leftoverThreads,
                     double cpuMillis, ContextSwitches contextSwitches, long allocatedBytes, long peakRssBytes) {
        this(model, workload, arrival, timeScaleDivisor, answer, requests, successes, failures, timeouts, cancelled,
                failureCauses, wallMillis, wallMillisMin, wallMillisMax, repeats, idealMillis, predictedMillis,
                predictionBasis, throughputPerSecond, latencyMillis, latencyHistogram, peakPlatformThreads,
                peakOsThreads, platformThreadsStarted, leftoverThreads, cpuMillis, contextSwitches, allocatedBytes,
                peakRssBytes, FailureScore.NOT_MEASURED);
    }

    /** True for a batch arrival, whose prediction is the batch's wall time; otherwise it is one request's time. */
    public boolean predictsWallTime() { return arrival.startsWith("batch"); }

    /**
     * The measured figure that {@code predictedMillis} predicts: the wall time for a batch, the mean latency
     * for open and closed arrivals (where the prediction is one request's time).
     */
    public double measuredMillis() { return predictsWallTime() ? wallMillis : latencyMillis.mean(); }

    /** Successes over completed requests, in [0, 1]. */
    public double successRatio() { return requests == 0 ? 0 : (double) successes / requests; }

    /** This run with the wall-time range and repeat count of a group of repeats. */
    public RunResult withRepeats(double minMillis, double maxMillis, int count) {
        return new RunResult(model, workload, arrival, timeScaleDivisor, answer, requests, successes, failures,
                timeouts, cancelled, failureCauses, wallMillis, minMillis, maxMillis, count, idealMillis,
                predictedMillis, predictionBasis, throughputPerSecond, latencyMillis, latencyHistogram,
                peakPlatformThreads, peakOsThreads, platformThreadsStarted, leftoverThreads, cpuMillis,
                contextSwitches, allocatedBytes, peakRssBytes, failureScore);
    }
}
