package dev.blocklab.experiment;

import dev.blocklab.result.RunResult;

/**
 * One (attempts, load) cell of {@code reproduce retries}: what the option bought (latency, successes) beside what
 * it cost (backend calls per request). Times in milliseconds after the time scale.
 *
 * @param option                   {@code once}, {@code retry ...} or {@code hedge after ...}
 * @param ratePerSecond            the open arrival rate, requests a second before the time scale
 * @param loadOfCapacity           that rate over the backend's capacity (1: exactly saturated)
 * @param requests                 requests completed
 * @param successRatio             requests that succeeded, over requests
 * @param timeouts                 requests that ended with a timeout
 * @param p50Millis                latency median from each request's intended start
 * @param p99Millis                latency 99th percentile
 * @param p999Millis               latency 99.9th percentile
 * @param predictedCallsPerRequest backend calls per request from the draws alone, as if nothing queued
 * @param callsPerRequest          backend calls sent per request (load amplification when above 1)
 * @param servedPerRequest         of those, calls that reached a worker, per request
 * @param workersBusyRatio         worker time spent over workers times wall time
 * @param run                      the whole run
 */
public record RetriesRow(String option, double ratePerSecond, double loadOfCapacity, long requests, double successRatio,
                         long timeouts, double p50Millis, double p99Millis, double p999Millis,
                         double predictedCallsPerRequest, double callsPerRequest, double servedPerRequest,
                         double workersBusyRatio, RunResult run) {}
