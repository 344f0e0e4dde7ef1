package dev.blocklab.result;

/**
 * How a run's requests failed: how long a failing request took to give up, and what it left running. Measured
 * by watching every backend call of the run ({@code recorder.FailureMeter}) with {@link System#nanoTime()};
 * only when the run could fail (a call with a failure or a timeout, or a request deadline), otherwise
 * {@link #NOT_MEASURED}.
 *
 * @param measured               false when the run was not watched; every figure is then 0
 * @param failedRequests         requests that ended in failure, timeout or cancellation
 * @param meanTimeToFailMillis   mean, over failed requests that saw a failure inside, of the time from that
 *                               first failure (a call failing or timing out) to the request's completion
 * @param maxTimeToFailMillis    the largest such time
 * @param cancellationsRequested calls that had to stop: in flight when their request's first failure happened,
 *                               or when the request ended without succeeding
 * @param cancellationsHonoured  of those, calls that ended by interruption or cancellation rather than running on
 * @param orphanedCalls          calls still running when their request had ended
 * @param orphanBackendMillis    backend time the orphans spent after their request ended, summed (for an orphan
 *                               still running when the run was scored, the time until then)
 * @param callsLeftRunning       calls still in flight 1 s after the run's last request had completed (sleeping
 *                               threads, pending timers); the grace lets a cancelled call notice its interrupt
 */
public record FailureScore(boolean measured, long failedRequests, double meanTimeToFailMillis,
                           double maxTimeToFailMillis, long cancellationsRequested, long cancellationsHonoured,
                           long orphanedCalls, double orphanBackendMillis, long callsLeftRunning) {
    public static final FailureScore NOT_MEASURED = new FailureScore(false, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Honoured over requested cancellations in [0, 1]; 1 when none was requested. */
    public double honouredRatio() {
        return cancellationsRequested == 0 ? 1 : (double) cancellationsHonoured / cancellationsRequested;
    }

    /** Jackson's filter that leaves an unmeasured score out of JSON (true: exclude). */
    public static final class NotMeasured {
        @Override public boolean equals(Object o) { return !(o instanceof FailureScore s) || !s.measured(); }

        @Override public int hashCode() { return 0; }
    }

    /** True when there is something to show: a failed request or work left running. */
    public boolean anyFailure() { return measured && (failedRequests > 0 || orphanedCalls > 0 || callsLeftRunning > 0); }
}
