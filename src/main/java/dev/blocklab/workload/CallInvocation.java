package dev.blocklab.workload;

/**
 * One downstream call as a request makes it, with everything already decided: how long it takes (after the
 * time scale), whether it fails, and what it answers. A backend only has to honour the timing.
 *
 * @param call         the step's name
 * @param requestId    the request making the call
 * @param delayNanos   how long the backend takes to answer, already divided by the time scale
 * @param timeoutNanos the caller gives up after this long, already scaled (0: never)
 * @param value        the answer on success
 * @param failure      the failure to raise, or null for success
 * @param operation    what to do on a real server (its answer replaces {@code value}), or null for a simulated call
 * @param attempt      which attempt of the call this is (0: the first; see {@link Step.Attempts})
 * @param rescuable    true when another attempt may still answer if this one fails, so its failure alone does
 *                     not fail the request (a retried attempt before the last, every attempt of a hedged call)
 * @param deadlineAtNanos the request's deadline as a {@link System#nanoTime} instant, or 0 for none: a backend
 *                     that is told a budget is told the time left until then when that is shorter than the timeout
 */
public record CallInvocation(String call, long requestId, long delayNanos, long timeoutNanos, Object value,
                             Step.FailureSpec failure, Operation operation, int attempt, boolean rescuable,
                             long deadlineAtNanos) {

    /** A first and only attempt, with no request deadline. */
    public CallInvocation(String call, long requestId, long delayNanos, long timeoutNanos, Object value,
                          Step.FailureSpec failure, Operation operation) {
        this(call, requestId, delayNanos, timeoutNanos, value, failure, operation, 0, false, 0);
    }

    /** A simulated call. */
    public CallInvocation(String call, long requestId, long delayNanos, long timeoutNanos, Object value,
                          Step.FailureSpec failure) {
        this(call, requestId, delayNanos, timeoutNanos, value, failure, null);
    }

    /** The row of the lab's data this call works on ({@link Operation#row(long)}). */
    public long row() { return Operation.row(requestId); }

    /**
     * The budget to tell a backend, in nanoseconds from {@code nowNanos} ({@link System#nanoTime}): the call's
     * timeout (else {@code defaultTimeoutNanos}), or the time left until the request's deadline when that is
     * shorter; at least 1.
     */
    public long budgetNanos(long defaultTimeoutNanos, long nowNanos) {
        long budget = timeoutNanos > 0 ? timeoutNanos : defaultTimeoutNanos;
        if (deadlineAtNanos != 0) budget = Math.min(budget, deadlineAtNanos - nowNanos);
        return Math.max(1, budget);
    }

    /** True when the caller's timeout fires before the backend answers. */
    public boolean timesOut() { return timeoutNanos > 0 && delayNanos > timeoutNanos; }

    /** How long the caller waits: the delay, or the timeout when that comes first. */
    public long waitNanos() { return timesOut() ? timeoutNanos : delayNanos; }

    /** The exception this call raises: the configured type with its message, or a timeout. */
    public Exception newFailure() {
        if (timesOut())
            return new java.util.concurrent.TimeoutException("call '" + call + "' timed out after " + Durations.format(timeoutNanos));
        if (failure == null) throw new IllegalStateException("call '" + call + "' succeeds");
        return instantiate(failure);
    }

    /** Creates the configured exception; falls back to a RuntimeException naming the type if it cannot. */
    public static Exception instantiate(Step.FailureSpec spec) {
        try {
            Class<?> type = Class.forName(spec.type());
            if (Exception.class.isAssignableFrom(type))
                return (Exception) type.getConstructor(String.class).newInstance(spec.message());
        } catch (ReflectiveOperationException | LinkageError ignored) {
            // fall through
        }
        return new RuntimeException(spec.type() + ": " + spec.message());
    }
}
