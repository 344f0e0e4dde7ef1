package dev.blocklab.result;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the requests of a run ended: every completed request is exactly one of success, failure, timeout or
 * cancelled, so the four add up to {@code requests}.
 *
 * @param requests      requests that completed (in any way)
 * @param successes     requests that answered
 * @param failures      requests that failed with an exception
 * @param timeouts      requests whose call or request timeout fired first
 * @param cancelled     requests cancelled before they finished
 * @param failureCauses {@code Type: message} (or {@code timeout: detail}) of each failure with its count, sorted
 */
public record Counts(long requests, long successes, long failures, long timeouts, long cancelled,
                     Map<String, Long> failureCauses) {

    public static final Counts NONE = new Counts(0, 0, 0, 0, 0, Map.of());

    public Counts {
        if (successes < 0 || failures < 0 || timeouts < 0 || cancelled < 0)
            throw new IllegalArgumentException("request counts must be >= 0, got " + successes + " successes, " + failures
                    + " failures, " + timeouts + " timeouts, " + cancelled + " cancelled");
        if (successes + failures + timeouts + cancelled != requests)
            throw new IllegalArgumentException("successes, failures, timeouts and cancelled (" + successes + " + " + failures
                    + " + " + timeouts + " + " + cancelled + ") must add up to the " + requests + " requests");
        failureCauses = Collections.unmodifiableMap(new TreeMap<>(failureCauses == null ? Map.of() : failureCauses));
    }

    /** Requests that did not succeed: failures, timeouts and cancelled. */
    public long unsuccessful() { return failures + timeouts + cancelled; }

    /** Successes over completed requests, in [0, 1]; 0 when nothing completed. */
    public double successRatio() { return requests == 0 ? 0 : (double) successes / requests; }

    /** The requests of both, as if they had been one run: every count and every cause's count added. */
    public Counts plus(Counts other) {
        Map<String, Long> causes = new TreeMap<>(failureCauses);
        other.failureCauses.forEach((cause, n) -> causes.merge(cause, n, Long::sum));
        return new Counts(requests + other.requests, successes + other.successes, failures + other.failures,
                timeouts + other.timeouts, cancelled + other.cancelled, causes);
    }
}
