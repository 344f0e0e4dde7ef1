package dev.blocklab.attack;

import dev.blocklab.driver.Pacer;

import java.util.function.BooleanSupplier;

/**
 * The open-model send loop: waits for each request's due time on an injected clock and hands it to a sender.
 * It never skips a request to catch up: a request found overdue is sent at once and, if more than the late
 * threshold behind, counted late. Sending stops when the next request is due at or after the duration, when a
 * stop is requested, or when the clock passes the duration by more than {@link #overrunNanos} (10 % of the
 * duration, at least 100 ms, at most 1 s): a loop that far behind would otherwise send long after the end, so
 * what it still owes is counted unsent instead.
 *
 * <p>Runs on one thread, the caller's. With a fake clock and a sleeper that advances it, every scheduling
 * decision is testable without sleeping.
 */
final class SendLoop {

    /** A monotonic clock in nanoseconds, like {@link System#nanoTime()}. */
    @FunctionalInterface interface NanoClock { long nanoTime(); }

    /** Waits about {@code nanos}; may return early. */
    @FunctionalInterface interface Sleeper { void sleepNanos(long nanos) throws InterruptedException; }

    /** Receives each send; {@code intendedNanos} and {@code sentNanos} are on the loop's clock. */
    @FunctionalInterface interface Sender { void send(long index, long intendedNanos, long sentNanos); }

    /**
     * What the loop did. Times on the loop's clock.
     *
     * @param sent          requests handed to the sender
     * @param unsent        requests due before the duration (after a stop: before the stop) that were never sent
     * @param lateSends     sends more than the threshold behind their due time
     * @param maxLateNanos  the worst lateness
     * @param lastSendNanos clock value at the last send (the start if none)
     * @param stopped       a stop was requested before the schedule ended
     */
    record Outcome(long sent, long unsent, long lateSends, long maxLateNanos, long lastSendNanos, boolean stopped) {}

    /** The longest single sleep, so a stop request is seen within this. */
    static final long MAX_SLEEP_NANOS = 20_000_000L;

    /** How far past the duration late requests may still be sent. */
    static long overrunNanos(long durationNanos) {
        return Math.min(1_000_000_000L, Math.max(100_000_000L, durationNanos / 10));
    }

    private final Pacer pacer;
    private final long durationNanos;
    private final long lateThresholdNanos;
    private final NanoClock clock;
    private final Sleeper sleeper;
    private final BooleanSupplier stopRequested;
    private final Shard shard;

    SendLoop(Pacer pacer, long durationNanos, long lateThresholdNanos, NanoClock clock, Sleeper sleeper,
             BooleanSupplier stopRequested) {
        this(pacer, durationNanos, lateThresholdNanos, clock, sleeper, stopRequested, Shard.WHOLE);
    }

    /** A loop that sends only {@code shard}'s requests of the schedule, each under its global number. */
    SendLoop(Pacer pacer, long durationNanos, long lateThresholdNanos, NanoClock clock, Sleeper sleeper,
             BooleanSupplier stopRequested, Shard shard) {
        this.shard = shard;
        this.pacer = pacer;
        this.durationNanos = durationNanos;
        this.lateThresholdNanos = lateThresholdNanos;
        this.clock = clock;
        this.sleeper = sleeper;
        this.stopRequested = stopRequested;
    }

    /** Sends the schedule that starts at {@code startNanos}; returns when it is done, stopped or interrupted. */
    Outcome run(long startNanos, Sender sender) {
        long index = shard.first(), sent = 0, late = 0, maxLate = 0, lastSend = startNanos;
        boolean stopped = false;
        long hardStop = durationNanos + overrunNanos(durationNanos);
        schedule:
        while (true) {
            long due = pacer.dueNanos(index);
            if (due >= durationNanos) break;
            while (true) {
                if (stopRequested.getAsBoolean()) { stopped = true; break schedule; }
                long now = clock.nanoTime() - startNanos;
                if (now >= hardStop) break schedule;
                if (now >= due) {
                    long lateness = now - due;
                    if (lateness > lateThresholdNanos) late++;
                    maxLate = Math.max(maxLate, lateness);
                    lastSend = startNanos + now;
                    sender.send(index, startNanos + due, lastSend);
                    index = shard.next(index);
                    sent++;
                    continue schedule;
                }
                try {
                    sleeper.sleepNanos(Math.min(due - now, MAX_SLEEP_NANOS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopped = true;
                    break schedule;
                }
            }
        }
        // After a stop, only what was already due counts as unsent: the rest was cancelled, not missed.
        long dueByEnd = stopped ? pacer.dueBy(Math.min(clock.nanoTime() - startNanos, durationNanos - 1)) : pacer.dueBy(durationNanos - 1);
        long unsent = Math.max(0, shard.ownedAmong(dueByEnd) - sent);
        return new Outcome(sent, unsent, late, maxLate, lastSend, stopped);
    }
}
