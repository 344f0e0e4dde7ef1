package dev.blocklab.result;

import dev.blocklab.result.LatencyMillis;
import org.HdrHistogram.Histogram;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What an attack measured; immutable (the histograms are copied in and out), so reports, experiments and
 * thresholds can share it.
 *
 * @param description          targets and schedule, e.g. {@code GET http://127.0.0.1:8080/ at 1000/s for 10s}
 * @param requests             requests sent (responses, errors and those cut off by a stop)
 * @param unsent               requests the schedule wanted before the end (after a stop: before the stop)
 *                             that the attacker never sent because it fell behind
 * @param ratePerSecond        requests / attack duration: the rate actually sent
 * @param throughputPerSecond  successful responses / total duration
 * @param totalNanos           attack plus wait
 * @param attackNanos          first send to last send
 * @param waitNanos            last send to the last response
 * @param latencyMillis        from each request's intended send time to its complete response (or error); for a
 *                             request cut off at the end, to the time of the report (a lower bound)
 * @param serviceTimeMillis    from the moment each request left on a connection (its send, for a client that
 *                             cannot tell) to its complete response (or error, or the report)
 * @param bytesIn              response body bytes, total
 * @param bytesOut             request body bytes, total
 * @param successes            responses with a status in [200, 400)
 * @param successRatio         successes / requests (0 when nothing was sent)
 * @param statusCodes          count per status; 0 counts requests without a response
 * @param errors               count per distinct error text
 * @param lateSends            sends that left more than {@code lateThresholdNanos} behind schedule
 * @param lateThresholdNanos   the definition of late
 * @param maxLateNanos         the worst lateness of a send
 * @param stopped              the attack was stopped (Ctrl-C or {@code dev.blocklab.attack.Attack#stop()}) before its duration
 * @param cutOff               requests still without a response when the report was made (after the drain
 *                             grace): counted as status 0 with an error, and in both histograms with the time
 *                             they had reached, so that many latencies are lower bounds
 * @param latencyHistogramNanos the full latency histogram, nanoseconds, for the percentile spectrum
 * @param serviceHistogramNanos the full service-time histogram, nanoseconds
 * @param health               the attacker's own health in this run and the instrument-limited verdict
 * @param retried              requests sent again, each still one request, after a connection kept for reuse closed
 *                             before any byte of their answer (a server's idle timeout racing them; Go's rule)
 */
public record AttackResult(String description, long requests, long unsent, double ratePerSecond,
                           double throughputPerSecond, long totalNanos, long attackNanos, long waitNanos,
                           LatencyMillis latencyMillis, LatencyMillis serviceTimeMillis, long bytesIn, long bytesOut,
                           long successes, double successRatio, SortedMap<Integer, Long> statusCodes,
                           SortedMap<String, Long> errors, long lateSends, long lateThresholdNanos, long maxLateNanos,
                           boolean stopped, long cutOff, Histogram latencyHistogramNanos, Histogram serviceHistogramNanos,
                           InstrumentHealth health, long retried) {

    public AttackResult {
        if (cutOff < 0 || cutOff > requests)
            throw new IllegalArgumentException("cut-off requests must be between 0 and the " + requests + " sent, got " + cutOff);
        statusCodes = Collections.unmodifiableSortedMap(new TreeMap<>(statusCodes));
        errors = Collections.unmodifiableSortedMap(new TreeMap<>(errors));
        latencyHistogramNanos = latencyHistogramNanos.copy();
        serviceHistogramNanos = serviceHistogramNanos.copy();
        if (health == null) throw new IllegalArgumentException("an attack result needs its instrument health");
        if (retried < 0) throw new IllegalArgumentException("retried requests must be >= 0, got " + retried);
    }

    @Override public Histogram latencyHistogramNanos() { return latencyHistogramNanos.copy(); }

    @Override public Histogram serviceHistogramNanos() { return serviceHistogramNanos.copy(); }

    /**
     * What a description says of a stop: nothing for an attack that ran its schedule, {@code " (stopped early)"}, or
     * that nothing was measured when it stopped before its first measured request (in the warm-up, say).
     */
    public String stopNote() {
        return !stopped ? "" : measuredNothing() ? " (stopped before any measured request: nothing measured)" : " (stopped early)";
    }

    /**
     * True when no request of the measured schedule was sent (an attack stopped in its warm-up, say): there is no
     * latency, rate or status figure, and a report says so rather than print zeros.
     */
    public boolean measuredNothing() { return requests == 0; }

    /**
     * True when the attacker, not the target, set the numbers: the {@linkplain InstrumentHealth instrument-limited}
     * verdict, which scales with the rate and the latency measured (a few sends 1 ms late beside a 500 ms
     * latency are not a fault). Latencies still count from the intended times.
     */
    public boolean fellBehind() {
        return health.instrumentLimited();
    }

    /**
     * True when the target failed: requests were sent and none, or fewer than 1 %, succeeded
     * ({@link InstrumentHealth#targetFailed}); the report then leads with it and the instrument is not judged.
     */
    public boolean targetFailed() {
        return InstrumentHealth.targetFailed(requests, successes);
    }

    /** Requests without a response (status 0). */
    public long errorCount() {
        long n = 0;
        for (Map.Entry<String, Long> e : errors.entrySet()) n += e.getValue();
        return n;
    }
}
