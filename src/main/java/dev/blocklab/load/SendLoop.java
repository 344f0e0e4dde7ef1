package dev.blocklab.load;

/**
 * The open-model send loop: waits for each request's due time on an injected clock and hands it to a sender.
 * It never skips a request to catch up: a request found overdue is sent at once and, if more than the late
 * threshold behind, counted late. Sending stops when the next request is due at or after the duration, when a
 * stop is requested, or when the clock passes the duration by more than {@link #overrunNanos} (10 % of the
 * duration, at least 100 ms, at most 1 s): a loop that far behind would otherwise send long after the end, so
 * what it still owes is counted unsent instead. A loop made {@link #withoutOverrun()} sends every request of the
 * schedule however late (the in-process driver measures a model's throughput that way).
 *
 * <p>The components: {@code hardStopNanos} is the elapsed time past which nothing more is sent (the duration plus
 * the overrun, or {@link Long#MAX_VALUE} for none); {@code shard} is the share of the schedule this loop sends
 * (every request of it for {@link Shard#WHOLE}), each request under its global number; the others as in the
 * shorter constructor.
 *
 * <p>Runs on one thread, the caller's. With a fake clock and a sleeper that advances it, every scheduling
 * decision is testable without sleeping.
 */
public record SendLoop(DueTimes pacer, long durationNanos, long hardStopNanos, long lateThresholdNanos, NanoClock clock,
                       Sleeper sleeper, Stop stopRequested, Shard shard) {

    /** A monotonic clock in nanoseconds, like {@link System#nanoTime()}. */
    @FunctionalInterface public interface NanoClock { long nanoTime(); }

    /** Waits about {@code nanos}; may return early. */
    @FunctionalInterface public interface Sleeper { void sleepNanos(long nanos) throws InterruptedException; }

    /** Whether a stop was asked (polled before every send and after every sleep), and when, where the asker knows. */
    @FunctionalInterface public interface Stop {
        boolean requested();

        /**
         * When the stop was asked, on the loop's clock, or {@link Long#MAX_VALUE} where unknown: the requests due
         * before it and not sent were missed (a loop that stalled), the later ones cancelled.
         */
        default long askedAtNanos() { return Long.MAX_VALUE; }
    }

    /** Receives each send; {@code intendedNanos} and {@code sentNanos} are on the loop's clock. */
    @FunctionalInterface public interface Sender { void send(long index, long intendedNanos, long sentNanos); }

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
    public record Outcome(long sent, long unsent, long lateSends, long maxLateNanos, long lastSendNanos, boolean stopped) {}

    /** The longest single sleep, so a stop request is seen within this. */
    public static final long MAX_SLEEP_NANOS = 20_000_000L;

    /** How far past the duration late requests may still be sent. */
    public static long overrunNanos(long durationNanos) {
        return Math.min(1_000_000_000L, Math.max(100_000_000L, durationNanos / 10));
    }

    /**
     * A loop that stops sending {@link #overrunNanos} after the duration.
     *
     * @param pacer              when each request is due (a {@link Pacer}, or a view of one)
     * @param durationNanos      requests due at or after this are not sent
     * @param lateThresholdNanos a send more than this behind its due time counts as late
     * @param stopRequested      polled before every send and after every sleep
     */
    public SendLoop(DueTimes pacer, long durationNanos, long lateThresholdNanos, NanoClock clock, Sleeper sleeper,
                    Stop stopRequested) {
        this(pacer, durationNanos, durationNanos + overrunNanos(durationNanos), lateThresholdNanos, clock, sleeper, stopRequested);
    }

    /** A loop over the whole schedule. */
    public SendLoop(DueTimes pacer, long durationNanos, long hardStopNanos, long lateThresholdNanos, NanoClock clock,
                    Sleeper sleeper, Stop stopRequested) {
        this(pacer, durationNanos, hardStopNanos, lateThresholdNanos, clock, sleeper, stopRequested, Shard.WHOLE);
    }

    /** A loop that sends only {@code shard}'s requests of the schedule and stops {@link #overrunNanos} after the duration. */
    public SendLoop(DueTimes pacer, long durationNanos, long lateThresholdNanos, NanoClock clock, Sleeper sleeper,
                    Stop stopRequested, Shard shard) {
        this(pacer, durationNanos, durationNanos + overrunNanos(durationNanos), lateThresholdNanos, clock, sleeper, stopRequested, shard);
    }

    public SendLoop {
        java.util.Objects.requireNonNull(shard, "shard");
        if (durationNanos <= 0) throw new IllegalArgumentException("a send loop needs a positive duration");
        if (hardStopNanos < durationNanos) throw new IllegalArgumentException("a send loop cannot stop before its duration");
    }

    /** This loop, except that it sends every request of the schedule however far behind it falls. */
    public SendLoop withoutOverrun() {
        return new SendLoop(pacer, durationNanos, Long.MAX_VALUE, lateThresholdNanos, clock, sleeper, stopRequested, shard);
    }

    /** How many requests this loop sends on schedule: its shard's share of those due before the duration. */
    public long requests() {
        return shard.ownedAmong(pacer.dueBy(durationNanos - 1));
    }

    /** Sends the schedule that starts at {@code startNanos}; returns when it is done, stopped or interrupted. */
    public Outcome run(long startNanos, Sender sender) {
        Steps steps = start(startNanos, sender);
        long wait;
        while ((wait = steps.step()) >= 0) {
            try {
                sleeper.sleepNanos(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                steps.stop();
            }
        }
        return steps.outcome();
    }

    /**
     * The schedule that starts at {@code startNanos}, sent by whoever calls {@link Steps#step} when it asks to be
     * called again (an event loop's timer, for example), not by this loop's sleeper. {@link #run} is these steps
     * with the sleeper between them.
     */
    public Steps start(long startNanos, Sender sender) { return new Steps(startNanos, sender); }

    /** Where a schedule's sending stands. Stepped by one thread at a time. */
    public final class Steps {
        private final long startNanos;
        private final Sender sender;
        private long index = shard.first(), sent, late, maxLate, lastSend;
        private long lookedNanos = -1;   // when this loop last read the clock, from the start: all due by then was sent or is late
        private Outcome outcome;

        private Steps(long startNanos, Sender sender) {
            this.startNanos = startNanos;
            this.sender = sender;
            this.lastSend = startNanos;
        }

        /**
         * Sends every request due by now; returns how long to wait before the next step, in nanoseconds (at most
         * {@link #MAX_SLEEP_NANOS}, so a stop is seen), or -1 when sending has ended (the schedule is done, a stop
         * was requested or the hard stop passed): then {@link #outcome()} is known.
         */
        public long step() {
            if (outcome != null) return -1;
            while (true) {
                long due = pacer.dueNanos(index);
                if (due >= durationNanos) return end(false, durationNanos - 1);
                if (stopRequested.requested()) {
                    long askedAt = stopRequested.askedAtNanos();
                    return end(true, askedAt == Long.MAX_VALUE ? lookedNanos : Math.min(clock.nanoTime(), askedAt) - startNanos);
                }
                long now = clock.nanoTime() - startNanos;
                lookedNanos = now;
                if (now >= hardStopNanos) return end(false, durationNanos - 1);
                if (now < due) return Math.min(due - now, MAX_SLEEP_NANOS);
                long lateness = now - due;
                if (lateness > lateThresholdNanos) late++;
                maxLate = Math.max(maxLate, lateness);
                lastSend = startNanos + now;
                sender.send(index, startNanos + due, lastSend);
                index = shard.next(index);
                sent++;
            }
        }

        /**
         * Ends sending now, as a stop does (an interrupted wait, a failed step): what fell due before now and was not
         * sent counts as unsent, since the loop was stopped from outside, perhaps while it could not step.
         */
        public void stop() {
            if (outcome == null) end(true, clock.nanoTime() - startNanos);
        }

        /** What was sent; null while sending goes on. */
        public Outcome outcome() { return outcome; }

        /**
         * Ends sending; what fell due by {@code dueByNanos} (from the start) and was not sent counts as unsent. A
         * stop the loop sees itself counts what fell due before the stop was asked (a loop that stalled missed
         * them), or, where that time is unknown, what was due when it last looked at the clock; requests that fell
         * due after, while the stop was on its way, were cancelled, not missed.
         */
        private long end(boolean stopped, long dueByNanos) {
            long dueByEnd = pacer.dueBy(Math.min(dueByNanos, durationNanos - 1));
            long unsent = Math.max(0, shard.ownedAmong(dueByEnd) - sent);
            outcome = new Outcome(sent, unsent, late, maxLate, lastSend, stopped);
            return -1;
        }
    }

    /** The outcome of several loops that sent shares of one schedule together (at least one). */
    public static Outcome combine(java.util.List<Outcome> outcomes) {
        long sent = 0, unsent = 0, late = 0, maxLate = 0, last = outcomes.getFirst().lastSendNanos();
        boolean stopped = false;
        for (Outcome o : outcomes) {
            sent += o.sent();
            unsent += o.unsent();
            late += o.lateSends();
            maxLate = Math.max(maxLate, o.maxLateNanos());
            if (o.lastSendNanos() - last > 0) last = o.lastSendNanos();
            stopped |= o.stopped();
        }
        return new Outcome(sent, unsent, late, maxLate, last, stopped);
    }
}
