package dev.blocklab.attack;

/**
 * Where an event loop's lateness went. For each probe that fired more than {@link #LATE_NANOS} late, its lateness
 * is split, from the loop thread's scheduler statistics over the probe's interval, into the part the thread spent
 * runnable but waiting for a CPU (whoever held the cores: the target on the same machine, other processes, the
 * attacker's own other threads), the part it spent running (the attacker's own work on that loop), and the rest,
 * stopped (neither: its JVM paused it, or it blocked). Totals over such probes, in nanoseconds.
 */
record LagCauses(long lateNanos, long waitingNanos, long runningNanos) {
    /**
     * Lateness up to this is not split: a probe later than its own period ({@link VertxTransport#PROBE_EVERY_MILLIS})
     * is a stall; below it, the loop's timer and select granularity (a millisecond or two of oversleep, which
     * would count as stopped) would outweigh the stalls in the shares.
     */
    static final long LATE_NANOS = 5_000_000L;
    static final LagCauses NONE = new LagCauses(0, 0, 0);

    /**
     * These totals and one late probe's: {@code lateness}, and how long over the probe's interval the thread ran
     * ({@code ranNanos}) and waited for a CPU ({@code waitedNanos}). Waiting counts first, each part at most
     * what is left of the lateness; a probe not more than {@link #LATE_NANOS} late adds nothing.
     */
    LagCauses plus(long lateness, long ranNanos, long waitedNanos) {
        if (lateness <= LATE_NANOS) return this;
        long waiting = Math.clamp(waitedNanos, 0, lateness);
        long running = Math.clamp(ranNanos, 0, lateness - waiting);
        return new LagCauses(lateNanos + lateness, waitingNanos + waiting, runningNanos + running);
    }

    LagCauses plus(LagCauses other) {
        return new LagCauses(lateNanos + other.lateNanos, waitingNanos + other.waitingNanos, runningNanos + other.runningNanos);
    }

    LagCauses minus(LagCauses earlier) {
        return new LagCauses(lateNanos - earlier.lateNanos, waitingNanos - earlier.waitingNanos, runningNanos - earlier.runningNanos);
    }

    /** The share of the lateness spent waiting for a CPU, 0..1; NaN without late probes. */
    double waitingShare() { return lateNanos == 0 ? Double.NaN : (double) waitingNanos / lateNanos; }

    /** The share of the lateness spent running, 0..1; NaN without late probes. */
    double runningShare() { return lateNanos == 0 ? Double.NaN : (double) runningNanos / lateNanos; }
}
