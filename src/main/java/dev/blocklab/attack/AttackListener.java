package dev.blocklab.attack;

import org.HdrHistogram.Histogram;

/**
 * Receives results while an attack runs, for streaming to files. {@link #onHit} is called on HTTP client
 * threads, possibly several at once, so implementations must be thread-safe and quick; {@link #onInterval} is
 * called from one thread at a time (the attack's monitor, then the attack's own thread for the last interval).
 */
public interface AttackListener {
    AttackListener NONE = new AttackListener() {};

    /** The measured schedule starts now (after the warm-up, if any). Called once, from the attack's thread. */
    default void onMeasuredStart() {}

    /** One response or error. */
    default void onHit(Hit hit) {}

    /**
     * Latencies (nanoseconds, from intended send time) of the responses that completed between
     * {@code startNanos} and {@code endNanos} after the attack's start. The histogram is the listener's to keep.
     */
    default void onInterval(long startNanos, long endNanos, Histogram latencyNanos) {}

    /** The attack is over; flush and close. Called once, from the attack's thread. */
    default void onEnd() {}

    /** A listener that only runs {@code action} when the measured schedule starts (a snapshot of the process's counters, say). */
    static AttackListener atMeasuredStart(Runnable action) {
        return new AttackListener() {
            @Override public void onMeasuredStart() { action.run(); }
        };
    }

    /** Calls each of {@code listeners} in order. */
    static AttackListener all(java.util.List<AttackListener> listeners) {
        java.util.List<AttackListener> ls = java.util.List.copyOf(listeners);
        return new AttackListener() {
            @Override public void onMeasuredStart() { for (AttackListener l : ls) l.onMeasuredStart(); }
            @Override public void onHit(Hit hit) { for (AttackListener l : ls) l.onHit(hit); }
            @Override public void onInterval(long startNanos, long endNanos, Histogram latencyNanos) {
                for (AttackListener l : ls) l.onInterval(startNanos, endNanos, latencyNanos);
            }
            @Override public void onEnd() { for (AttackListener l : ls) l.onEnd(); }
        };
    }
}
