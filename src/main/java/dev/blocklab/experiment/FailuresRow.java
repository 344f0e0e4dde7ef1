package dev.blocklab.experiment;

import dev.blocklab.result.RunResult;

/**
 * One model's row in {@code reproduce failures}: what the graph predicts beside what the run's failure score
 * measured. Times in milliseconds, after the time scale.
 *
 * @param model                          the model's name
 * @param calls                          {@code overlapped} or {@code in step order}, from the model's own prediction
 * @param requests                       requests completed
 * @param failed                         requests that failed, timed out or were cancelled
 * @param predictedFailMillis            one request alone: when the failure is known
 * @param meanLatencyMillis              measured mean latency from each request's intended start
 * @param p99LatencyMillis               measured 99th percentile latency
 * @param timeToFailMillis               mean time from a request's first failure to its completion
 * @param cancellationsRequested         calls that had to stop
 * @param cancellationsHonoured          of those, calls that ended by interrupt or cancellation
 * @param orphanedCalls                  calls still running after their request ended
 * @param predictedOrphanMillisPerFailed backend time orphans should waste per failed request
 * @param orphanMillisPerFailed          backend time they did waste per failed request
 * @param callsLeftRunning               calls in flight when the last request had completed
 * @param leftoverThreads                platform threads alive after the model closed
 * @param verdict                        {@code cancels}, {@code nothing left to cancel}, {@code leaks: N of M calls ran on}
 *                                       (after their request ended) or {@code waits: N of M calls ran to their end}
 *                                       (while their request waited for them)
 * @param run                            the whole run
 */
public record FailuresRow(String model, String calls, long requests, long failed, double predictedFailMillis,
                          double meanLatencyMillis, double p99LatencyMillis, double timeToFailMillis,
                          long cancellationsRequested, long cancellationsHonoured, long orphanedCalls,
                          double predictedOrphanMillisPerFailed, double orphanMillisPerFailed, long callsLeftRunning,
                          int leftoverThreads, String verdict, RunResult run) {}
