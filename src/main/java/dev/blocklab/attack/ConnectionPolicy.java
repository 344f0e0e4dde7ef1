package dev.blocklab.attack;

/**
 * When a request that finds no idle kept-alive connection gets a new one (docs/attack.md, "Connections"): only
 * when waiting for a busy connection to free would cost more than the request may wait, {@link #allowedWaitNanos}:
 * the largest of {@value #WAIT_SHARE_OF_SERVICE_TIME} of the measured service time, the measured time to open a
 * connection (opening one cannot serve a request sooner) and {@link #MIN_WAIT_NANOS} (the attacker's default
 * late-send threshold: a burst of a few hundred requests against a 0.1 ms target drains from a few kept-alive
 * connections within it, where opening a connection for each would cost the event loop more than the wait). A
 * fast target (0.1 ms) is then carried by a few dozen connections, since one frees every few
 * microseconds; a slow one (500 ms at 8,000/s) gets the thousands it needs, since at a rate step or at the start
 * no connection frees for hundreds of milliseconds.
 *
 * <p>The estimate: {@code busy} connections each carry one request; the oldest of them left at
 * {@code oldestBusySinceNanos} and is expected to finish one service time after that; after it, the busy
 * connections free one every {@code serviceTime / busy} on average. Before any service time is measured, the
 * oldest request's age stands for both its remaining time and the service time (a request that has run for
 * {@code t} is expected to need about {@code t} more). A connection being opened serves one waiting request
 * when it connects, then one every service time.
 *
 * <p>One instance per host and event loop, called on that loop's thread only; it keeps no clock: every time is
 * passed in ({@link System#nanoTime} values), so the decisions are tested with a fake clock.
 */
final class ConnectionPolicy {
    /** The share of the measured service time a request may wait for a kept-alive connection to free. */
    static final double WAIT_SHARE_OF_SERVICE_TIME = 0.01;
    /** The least a request may wait for a kept-alive connection: the default late-send threshold, 1 ms. */
    static final long MIN_WAIT_NANOS = 1_000_000L;
    /** The time to open a connection assumed until one is measured. */
    static final long INITIAL_CONNECT_NANOS = 1_000_000L;
    /** Weight of each new sample in the moving averages of service and connect time. */
    static final double SMOOTHING = 1.0 / 16;

    private double serviceNanos = Double.NaN;
    private double connectNanos = INITIAL_CONNECT_NANOS;

    /** Weight of a service time above the estimate: it rises slowly, so the estimate follows the lower envelope. */
    static final double SMOOTHING_UP = 1.0 / 256;

    /**
     * A request's service time (on a connection to its response), measured. The estimate follows the lower
     * envelope (down at once by half the gap, up by 1/256 of it): a fast target whose responses the starved
     * attacker read late, or that the machine slowed, still shows fast responses in between, and taking the slow
     * ones at their word opened thousands of connections that made every response slower still. A target that
     * is slow throughout keeps its estimate; one whose responses vary widely is caught by the waiting requests'
     * actual waits ({@link #toOpen}'s {@code overdue}).
     */
    void serviceTime(long nanos) {
        double n = Math.max(1, nanos);
        if (Double.isNaN(serviceNanos)) serviceNanos = n;
        else serviceNanos += (n < serviceNanos ? 0.5 : SMOOTHING_UP) * (n - serviceNanos);
    }

    /** The time a connection took to open, measured. */
    void connectTime(long nanos) {
        connectNanos += SMOOTHING * (Math.max(1, nanos) - connectNanos);
    }

    /** The smoothed service time, or NaN before any was measured. */
    double serviceNanos() { return serviceNanos; }

    /** The smoothed time to open a connection. */
    double connectNanos() { return connectNanos; }

    /** How long a request may wait for a busy connection to free before one is opened for it. */
    long allowedWaitNanos() { return allowedWaitNanos(serviceNanos); }

    private long allowedWaitNanos(double service) {
        double byService = Double.isNaN(service) ? 0 : WAIT_SHARE_OF_SERVICE_TIME * service;
        return (long) Math.max(MIN_WAIT_NANOS, Math.max(connectNanos, byService));
    }

    /**
     * How many connections to start opening now, given {@code waiting} requests queued for a connection,
     * {@code connecting} connections already being opened, and {@code busy} connections carrying a request, the
     * oldest since {@code oldestBusySinceNanos} (ignored when {@code busy} is 0), on an event loop that ran
     * {@code loopLagNanos} late just now. Not capped: the caller applies its own bounds.
     *
     * <p>The lag is taken off the service time: a loop that was descheduled for a second read every response of
     * that second a second late, so the service time it measured is the loop's delay, not the target's, and
     * opening connections (work for the same starved loop) would not serve the queue sooner.
     */
    int toOpen(long nowNanos, int waiting, int connecting, int busy, long oldestBusySinceNanos, long loopLagNanos) {
        return toOpen(nowNanos, waiting, connecting, busy, oldestBusySinceNanos, loopLagNanos, 0);
    }

    /**
     * As {@link #toOpen(long, int, int, int, long, long)}, and at least one connection for each of the
     * {@code overdue} oldest waiting requests that have already waited longer than {@link #overdueNanos} (beyond
     * those being opened): the estimate was wrong for them, whatever it says now.
     */
    int toOpen(long nowNanos, int waiting, int connecting, int busy, long oldestBusySinceNanos, long loopLagNanos,
               int overdue) {
        int estimated = estimatedToOpen(nowNanos, waiting, connecting, busy, oldestBusySinceNanos, loopLagNanos);
        return Math.max(estimated, Math.min(waiting, overdue) - connecting);
    }

    /** How long a waiting request may actually wait before it gets a connection whatever the estimate: twice its allowance. */
    long overdueNanos() { return 2 * allowedWaitNanos(); }

    private int estimatedToOpen(long nowNanos, int waiting, int connecting, int busy, long oldestBusySinceNanos, long loopLagNanos) {
        if (waiting <= 0) return 0;
        if (busy <= 0) return Math.max(0, waiting - connecting); // nothing will free: each waiting request needs one
        double lag = Math.max(0, loopLagNanos);
        double age = Math.max(1, nowNanos - oldestBusySinceNanos);
        boolean measured = !Double.isNaN(serviceNanos);
        double service = Math.max(1, (measured ? serviceNanos : age) - lag);
        double remaining = measured ? Math.max(0, service - age) : service;
        long allowed = allowedWaitNanos(measured ? service : Double.NaN);
        // Requests the busy connections serve within the allowed wait: the oldest's, then one every service / busy.
        double byBusy = remaining > allowed ? 0 : 1 + (allowed - remaining) * busy / service;
        // Each connection being opened serves one when it connects, then one every service time until the allowance ends.
        double perNew = 1 + Math.max(0, allowed - connectNanos) / service;
        double uncovered = waiting - byBusy - connecting * perNew;
        if (uncovered <= 0) return 0;
        return (int) Math.min(waiting - connecting, Math.ceil(uncovered / perNew));
    }
}
