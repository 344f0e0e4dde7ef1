package dev.blocklab.attack;

import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.AttackResult;
import dev.blocklab.driver.Progress;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.SendLoop;
import dev.blocklab.load.Shard;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * Runs one attack: sends the settings' targets on their schedule through an HTTP client, records every response
 * and returns an {@link AttackResult}.
 *
 * <p>With a warm-up, the same targets are first sent, stepping up to the schedule's starting rate (or by its
 * users), for the warm-up duration on the same client and connections, and those results are discarded: a
 * fresh JVM spends its first seconds compiling, and a cold client has no connections, which otherwise shows as
 * late sends and a latency tail. The measured schedule follows once the warm-up's requests are answered (at most
 * the warm-up's duration later), so it starts without the warm-up's backlog. A measured schedule with a common
 * start ({@code --start-at}, every shard's) starts at that instant instead, so its warm-up stops sending a fifth
 * of its time before and is answered in that fifth.
 *
 * <p>The attack also measures itself over the measured schedule ({@link SelfMeter}, the transport's event-loop
 * probe, each request's delay before it left on a connection) and its result carries the
 * {@link InstrumentHealth} verdict.
 *
 * <p>Threads: an open schedule is paced on the HTTP client's event loops, each sending its share of the
 * requests on its own connections when its timer says they are due (the caller's thread waits), or, for a client
 * without event loops, by a send loop on the caller's thread; in the closed model the caller waits while
 * completions drive the users; responses are recorded on the HTTP client's threads; a monitor
 * thread reports progress four times a second and drains interval histograms. {@link #stop} may be called from
 * any thread (a shutdown hook, for example): sending stops within {@link SendLoop#MAX_SLEEP_NANOS}, responses
 * still outstanding get {@link #STOP_GRACE_NANOS} to arrive, and {@code run} returns the result of what was
 * sent. Everything recorded happens-before {@code run} returns.
 *
 * <p>Requests still without a response when the attack ends (after the grace, or the timeout plus a second at
 * the end of a full run) are cut off: each counts as status 0 with the error {@value #CUT_OFF_ERROR}, and enters
 * the latency and service-time histograms with the time it had reached at the report (a lower bound), and the
 * listener gets its {@link Hit}. A response arriving after that is ignored.
 */
public final class Attack {
    /** After a stop, how long responses still in flight may take before they are cut off. */
    public static final long STOP_GRACE_NANOS = 1_000_000_000L;
    /** The error text of a request cut off at the end. */
    public static final String CUT_OFF_ERROR = "no response before the attack stopped";
    private static final long PROGRESS_EVERY_NANOS = 250_000_000L;
    /** After the cut-off, how long completions that already claimed their request may take to finish recording. */
    private static final long RECORDING_GRACE_NANOS = 100_000_000L;

    private final AttackSettings settings;
    private final java.util.function.Function<AttackSettings, Transport> transports;
    private final Shard shard;
    private final java.util.function.Supplier<java.time.Instant> startAt;
    private volatile java.time.Instant startedAt;
    private volatile boolean stopRequested;
    private volatile long stopNanos;
    private volatile boolean started;
    /** Guards {@link #waitingForStart}: {@link #stop} interrupts it only while it waits for the start. */
    private final Object startWait = new Object();
    /** The thread asking {@link #startAt} for the common start (a barrier it polls), or null. */
    private Thread waitingForStart;

    public Attack(AttackSettings settings) {
        this(settings, Shard.WHOLE, (java.util.function.Supplier<java.time.Instant>) null);
    }

    /**
     * An attack that sends only {@code shard}'s share of the open schedule (see {@link Shard}), its measured
     * schedule starting at the wall-clock instant {@code startAt} (null: as soon as it is warm), so shards started
     * apart still send one interleaved schedule. The warm-up, if any, ends at {@code startAt}. A start already
     * past is kept: the requests it owes are sent at once, late, their latency counted from the common schedule.
     */
    public Attack(AttackSettings settings, Shard shard, java.time.Instant startAt) {
        this(settings, shard, startAt == null ? null : () -> startAt);
    }

    /**
     * As {@link #Attack(AttackSettings, Shard, java.time.Instant)}, the common start asked of {@code startAt} once the
     * client is up and its first connections are open (a barrier a coordinator releases when every worker is ready).
     */
    public Attack(AttackSettings settings, Shard shard, java.util.function.Supplier<java.time.Instant> startAt) {
        this(settings, shard, startAt, Transport::create);
    }

    /** An attack over the client {@code transports} makes of the settings (tests give their own). */
    Attack(AttackSettings settings, Shard shard, java.util.function.Supplier<java.time.Instant> startAt,
           java.util.function.Function<AttackSettings, Transport> transports) {
        this.transports = transports;
        this.settings = settings;
        this.shard = java.util.Objects.requireNonNull(shard, "shard");
        this.startAt = startAt;
        if (shard.count() > 1 && !(settings.schedule() instanceof Arrival.Open))
            throw new IllegalArgumentException("--shard splits an open schedule (--rate), not --users");
    }

    /** Runs an attack without listeners; see {@link #run(Progress, AttackListener)}. */
    public static AttackResult run(AttackSettings settings, Progress progress) {
        return new Attack(settings).run(progress, AttackListener.NONE);
    }

    /** Asks a running attack to stop sending; {@link #run} then returns what was measured. Idempotent. */
    public void stop() {
        if (!stopRequested) {
            stopNanos = System.nanoTime();
            stopRequested = true;
        }
        synchronized (startWait) {
            if (waitingForStart != null) waitingForStart.interrupt();   // a barrier not yet written: stop waiting for it
        }
    }

    /** The common start asked of {@link #startAt}; null when the attack is stopped before it is known. */
    private java.time.Instant awaitStart() {
        synchronized (startWait) {
            waitingForStart = Thread.currentThread();
        }
        try {
            return stopRequested ? null : startAt.get();
        } catch (RuntimeException e) {
            if (stopRequested) return null;   // the wait was interrupted by stop()
            throw e;
        } finally {
            synchronized (startWait) {
                waitingForStart = null;
                Thread.interrupted();   // stop()'s interrupt ends here, before any later wait of this thread
            }
        }
    }

    /** The wall-clock instant the measured schedule started at (the common start of a shard); null before it is known. */
    public java.time.Instant startedAt() { return startedAt; }

    /**
     * Returns {@code at}, or refuses it when the schedule it starts has already ended at {@code now}: nothing would
     * be sent. A start in the past but within the schedule is kept: the shard owes what fell due since, sent at once
     * and counted late. Checked before any file is opened for a given instant, and again at a barrier's.
     */
    public static java.time.Instant refuseEnded(Arrival schedule, java.time.Instant at, java.time.Instant now) {
        long durationNanos = AttackSettings.durationNanos(schedule);
        long lateNanos;
        try {
            lateNanos = java.time.Duration.between(at, now).toNanos();
        } catch (ArithmeticException overflow) {   // centuries apart
            lateNanos = at.isBefore(now) ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        if (durationNanos == 0 || lateNanos < durationNanos) return at;
        long overNanos = lateNanos - durationNanos, day = 86_400_000_000_000L;
        throw new IllegalArgumentException("--start-at " + at + ": the schedule it starts (" + Durations.format(durationNanos)
                + ") ended " + (overNanos >= day ? overNanos / day + " days" : Durations.format(overNanos)) + " ago, so nothing would be sent");
    }

    /** Runs the attack once; blocks until it ends. */
    public AttackResult run(Progress progress, AttackListener listener) {
        synchronized (this) {
            if (started) throw new IllegalStateException("an Attack runs once");
            started = true;
        }
        AttackRecorder recorder = new AttackRecorder();
        AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();
        AttackResult result;
        try (Transport transport = transports.apply(settings)) {
            transport.warmUp(settings.targets());
            SelfMeter meter = new SelfMeter(transport);
            meter.start(); // once ahead, so its first (slow) call is not inside the measured schedule
            long start = System.nanoTime();
            java.time.Instant at = startAt == null ? null : awaitStart();
            if (at != null) {
                refuseEnded(settings.schedule(), at, java.time.Instant.now());   // a barrier's start, read only now
                start = System.nanoTime();
                long common = start + java.time.Duration.between(java.time.Instant.now(), at).toNanos();
                startedAt = at;
                long warmFrom = common - settings.warmupNanos();
                while (System.nanoTime() - warmFrom < 0 && !stopRequested) {
                    progress.update("waiting for the common start " + at);
                    LockSupport.parkNanos(Math.min(warmFrom - System.nanoTime(), 250_000_000L));
                }
                long warm = common - System.nanoTime();
                if (settings.warmupNanos() > 0 && warm > 0 && !stopRequested) {
                    // The common start does not wait for the warm-up to be answered, so the warm-up stops sending a
                    // fifth of its time early and its requests are answered in that fifth.
                    long sending = warm - warm / SHARD_DRAIN_SHARE;
                    progress.update("warm-up " + Durations.format(sending) + " (discarded)");
                    AttackRecorder warmRecorder = new AttackRecorder();
                    drive(new Run(transport, warmRecorder, AttackListener.NONE, listenerFailure, System.nanoTime()),
                            warmUpSchedule(sending));
                    drainWarmUp(warmRecorder, common, progress);
                }
                meter.start();
                while (System.nanoTime() - common < 0 && !stopRequested) LockSupport.parkNanos(common - System.nanoTime());
                start = common;
            } else if (startAt == null && settings.warmupNanos() > 0 && !stopRequested) {
                progress.update("warm-up " + Durations.format(settings.warmupNanos()) + " (discarded)");
                AttackRecorder warmRecorder = new AttackRecorder();
                Run warm = new Run(transport, warmRecorder, AttackListener.NONE, listenerFailure, start);
                drive(warm, warmUpSchedule(settings.warmupNanos()));
                while (System.nanoTime() - (start + settings.warmupNanos()) < 0)
                    LockSupport.parkNanos(start + settings.warmupNanos() - System.nanoTime());
                drainWarmUp(warmRecorder, System.nanoTime() + settings.warmupNanos(), progress);
                // The measured schedule follows as soon as the warm-up's requests are answered: the connections
                // stay open and warm, and no backlog of the warm-up is measured as the target's.
                meter.start();
                start = System.nanoTime();
            } else {
                meter.start();
                start = System.nanoTime();
            }
            if (startAt == null) startedAt = java.time.Instant.now();   // a shard stopped before its start has none
            listener.onMeasuredStart();
            Run run = new Run(transport, recorder, listener, listenerFailure, start);
            ScheduledExecutorService monitor = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().daemon().name("attack-monitor").factory());
            monitor.scheduleAtFixedRate(() -> progress.update(run.progressLine()),
                    PROGRESS_EVERY_NANOS, PROGRESS_EVERY_NANOS, TimeUnit.NANOSECONDS);
            monitor.scheduleAtFixedRate(run::emitInterval, settings.intervalNanos(), settings.intervalNanos(), TimeUnit.NANOSECONDS);
            SendLoop.Outcome outcome;
            try {
                outcome = drive(run, settings.schedule());
                meter.sendingEnded();
                awaitInFlight(recorder);
            } finally {
                monitor.shutdownNow();
                awaitQuietly(monitor);
            }
            long reportNanos = System.nanoTime() - start;
            for (Hit hit : recorder.cutOff(reportNanos, CUT_OFF_ERROR)) run.deliver(hit);
            awaitRecorded(recorder);
            progress.update(run.progressLine());
            run.emitInterval();
            result = recorder.result(description(), outcome, settings.lateThresholdNanos(), reportNanos, CUT_OFF_ERROR,
                    meter.measured(), run.retried());
        } finally {
            listener.onEnd(); // flush and close output files whatever happened, keeping what was recorded
        }
        if (listenerFailure.get() != null) throw listenerFailure.get();
        return result;
    }

    private SendLoop.Outcome drive(Run run, Arrival schedule) {
        return switch (schedule) {
            case Arrival.Open open when !run.transport.eventLoops().isEmpty() -> paceOnLoops(run, open);
            case Arrival.Open open -> sendLoop(open, shard)
                    .run(run.startNanos, (index, intended, sent) -> run.fire(index, intended, sent, null, null));
            case Arrival.Closed closed -> run.closed(closed);
            case Arrival.Batch b -> throw new AssertionError("AttackSettings refuses a batch");
        };
    }

    private SendLoop sendLoop(Arrival.Open open, Shard share) {
        return new SendLoop(open.pacer(), open.durationNanos(), settings.lateThresholdNanos(), System::nanoTime,
                Attack::park, new SendLoop.Stop() {
                    @Override public boolean requested() { return stopRequested; }
                    @Override public long askedAtNanos() { return stopNanos; }   // written before stopRequested
                }, share);
    }

    /**
     * Paces the open schedule on the client's event loops: loop {@code i} of {@code n} sends the attack's share's
     * requests {@code i, i + n, ...} ({@link Shard#split}), stepping a {@link SendLoop} of its own from its timer,
     * on its own connections; the caller's thread only waits. A loop whose step fails stops sending, and the
     * failure stops the attack.
     */
    private SendLoop.Outcome paceOnLoops(Run run, Arrival.Open open) {
        List<Transport.EventLoop> loops = run.transport.eventLoops();
        int n = loops.size();
        java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(n);
        List<SendLoop.Steps> all = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            Transport.EventLoop loop = loops.get(i);
            SendLoop.Steps steps = sendLoop(open, shard.split(i, n))
                    .start(run.startNanos, (index, intended, sent) -> run.fire(index, intended, sent, null, loop));
            all.add(steps);
            final class Step implements Runnable {
                @Override public void run() {
                    try {
                        long wait = steps.step();
                        if (wait >= 0) {
                            loop.schedule(this, wait);
                            return;
                        }
                    } catch (RuntimeException | Error e) { // a bug, or a loop shut down under it: the attack fails with it
                        steps.stop();
                        run.listenerFailure.compareAndSet(null, e instanceof RuntimeException r ? r : new IllegalStateException(e));
                        stop();
                    }
                    ended.countDown();
                }
            }
            loop.schedule(new Step(), 0);
        }
        // A loop sees a stop within its longest wait (MAX_SLEEP_NANOS), so this returns soon after one.
        boolean interrupted = false;
        while (true) {
            try {
                ended.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                stop();
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
        return SendLoop.combine(all.stream().map(SendLoop.Steps::outcome).toList());
    }

    /**
     * The warm-up: steps up to the schedule's starting rate (a tenth, a quarter, half, each for a fifth of the
     * warm-up, then the rate itself for the last two fifths), or its users, for {@code nanos}. A cold JVM sent
     * straight at 10,000/s interprets and compiles at once and builds a queue that it then drains into the
     * measured schedule; stepping up lets the compiler catch up first.
     */
    private Arrival warmUpSchedule(long nanos) {
        return switch (settings.schedule()) {
            case Arrival.Open open -> {
                double rate = open.pacer().ratePerSecondAt(0);
                yield new Arrival.Open(new Pacer.Steps(List.of(rate / 10, rate / 4, rate / 2, rate), Math.max(1, nanos / 5)), nanos);
            }
            case Arrival.Closed closed -> new Arrival.Closed(closed.users(), nanos);
            case Arrival.Batch b -> b;
        };
    }

    private String description() {
        List<Target> ts = settings.targets();
        String what = ts.size() == 1 ? ts.getFirst().method() + " " + ts.getFirst().url() : ts.size() + " targets";
        return what + (settings.schedule() instanceof Arrival.Closed ? " with " : " at ") + settings.scheduleLabel()
                + (settings.warmupNanos() > 0 ? " after a " + Durations.format(settings.warmupNanos()) + " warm-up (discarded)" : "")
                + (shard.count() > 1 ? SHARD_SUFFIX + shard : "");
    }

    /** What a shard's description ends with, before its {@code i/N}. */
    public static final String SHARD_SUFFIX = ", shard ";

    private void awaitInFlight(AttackRecorder recorder) {
        awaitCompleted(recorder, System.nanoTime() + settings.timeoutNanos() + 1_000_000_000L,
                () -> stopRequested && System.nanoTime() - stopNanos > STOP_GRACE_NANOS, inFlight -> {});
    }

    /**
     * Waits until the warm-up's requests are answered, at most until {@code deadlineNanos} (the warm-up's own
     * duration after its end, or a shard's common start): a warm-up that ended with a backlog (a cold JIT,
     * connections still opening) would otherwise hand it to the measured schedule, whose first seconds then
     * measured the warm-up (at 20,000/s against a trivial target the measured schedule started with p50 900 ms and
     * took seconds to drain, where a clean start held p99 near 1 ms). A target that never catches up is measured as
     * it is once the deadline passes.
     */
    private void drainWarmUp(AttackRecorder warm, long deadlineNanos, Progress progress) {
        long[] nextProgress = {System.nanoTime()};
        awaitCompleted(warm, deadlineNanos, () -> stopRequested, inFlight -> {
            if (System.nanoTime() - nextProgress[0] < 0) return;
            progress.update("warm-up: " + inFlight + " requests still in flight (discarded)");
            nextProgress[0] += PROGRESS_EVERY_NANOS;
        });
    }

    /** A warm-up before a common start sends for all but 1/this of the time until it, and drains in the rest. */
    private static final int SHARD_DRAIN_SHARE = 5;

    /** Waits (briefly) for completions that claimed their request before the cut-off to finish recording it. */
    private static void awaitRecorded(AttackRecorder recorder) {
        awaitCompleted(recorder, System.nanoTime() + RECORDING_GRACE_NANOS, () -> false, inFlight -> {});
    }

    /**
     * Waits until every request {@code recorder} counted as sent is recorded, {@code deadlineNanos} passes or
     * {@code stop} holds, looking every millisecond; {@code onWait} hears how many are still in flight at each look.
     */
    private static void awaitCompleted(AttackRecorder recorder, long deadlineNanos, BooleanSupplier stop, LongConsumer onWait) {
        long inFlight;
        while ((inFlight = recorder.sentCount() - recorder.completedCount()) > 0
                && System.nanoTime() - deadlineNanos < 0 && !stop.getAsBoolean()) {
            onWait.accept(inFlight);
            LockSupport.parkNanos(1_000_000L);
        }
    }

    private static void park(long nanos) throws InterruptedException {
        LockSupport.parkNanos(nanos);
        if (Thread.interrupted()) throw new InterruptedException();
    }

    private static void awaitQuietly(ScheduledExecutorService s) {
        try {
            s.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One run's shared state: what the send loop, the completions and the monitor touch. */
    private final class Run {
        private final Transport transport;
        private final AttackRecorder recorder;
        private final AttackListener listener;
        private final AtomicReference<RuntimeException> listenerFailure;
        private final long startNanos;
        /** The transport's count of requests sent again when this run began (the warm-up's are not this run's). */
        private final long retriedBefore;
        private final AtomicLong nextIndex = new AtomicLong();
        private long intervalStartNanos;

        Run(Transport transport, AttackRecorder recorder, AttackListener listener,
            AtomicReference<RuntimeException> listenerFailure, long startNanos) {
            this.transport = transport;
            this.recorder = recorder;
            this.listener = listener;
            this.listenerFailure = listenerFailure;
            this.startNanos = startNanos;
            this.retriedBefore = transport.retriedRequests();
        }

        /** Requests of this run sent again after a reused connection closed unanswered ({@link Transport#retriedRequests}). */
        long retried() { return transport.retriedRequests() - retriedBefore; }

        /**
         * Sends request {@code index} through {@code via} (on that loop's thread) or, when null, the transport;
         * {@code then} (closed users) runs after it is recorded.
         */
        void fire(long index, long intendedNanos, long sentNanos, Runnable then, Transport.EventLoop via) {
            List<Target> targets = settings.targets();
            int ti = (int) (index % targets.size());
            Target target = targets.get(ti);
            recorder.sent(index, ti, intendedNanos - startNanos, sentNanos - startNanos, target.bodyLength());
            Transport.Completion completion = (onWireNanos, connectionWaitNanos, status, bytesIn, error) -> {
                long end = System.nanoTime();
                long wire = onWireNanos == 0 ? sentNanos : Math.max(sentNanos, onWireNanos);
                String e = error != null ? error
                        : status < 200 || status >= 400 ? target.label() + ": status " + status : null;
                Hit hit = new Hit(index, ti, intendedNanos - startNanos, sentNanos - startNanos, end - intendedNanos,
                        end - wire, status, bytesIn, target.bodyLength(), e);
                if (!recorder.record(hit, end - startNanos, onWireNanos == 0 ? 0 : connectionWaitNanos)) return; // already cut off and reported
                deliver(hit);
                if (then != null) then.run();
            };
            try {
                if (via != null) via.sendHere(target, completion);
                else transport.send(target, completion);
            } catch (RuntimeException ex) {
                completion.complete(0, 0, 0, 0, target.label() + ": " + Transport.describe(ex));
            }
        }

        /** Hands {@code hit} to the listener; a listener that fails stops the attack and fails the run. */
        void deliver(Hit hit) {
            try {
                listener.onHit(hit);
            } catch (RuntimeException ex) {
                listenerFailure.compareAndSet(null, ex);
                stop();
            }
        }

        /** Closed model: each user sends its next request when its last one is recorded. */
        SendLoop.Outcome closed(Arrival.Closed closed) {
            long end = startNanos + closed.durationNanos();
            for (int u = 0; u < closed.users(); u++) user(end);
            while (!stopRequested && System.nanoTime() - end < 0) LockSupport.parkNanos(SendLoop.MAX_SLEEP_NANOS);
            return new SendLoop.Outcome(recorder.sentCount(), 0, 0, 0, System.nanoTime(), stopRequested);
        }

        private void user(long endNanos) {
            long now = System.nanoTime();
            if (stopRequested || now - endNanos >= 0) return;
            fire(nextIndex.getAndIncrement(), now, now, () -> user(endNanos), null);
        }

        synchronized void emitInterval() {
            long end = System.nanoTime() - startNanos;
            var h = recorder.drainInterval();
            try {
                listener.onInterval(intervalStartNanos, end, h);
            } catch (RuntimeException ex) {
                listenerFailure.compareAndSet(null, ex);
                stop();
            }
            intervalStartNanos = end;
        }

        String progressLine() {
            long elapsed = System.nanoTime() - startNanos;
            long sent = recorder.sentCount();
            long inFlight = sent - recorder.completedCount();
            int conns = transport.openConnections();
            long retried = retried();
            long durationNanos = AttackSettings.durationNanos(settings.schedule());
            // before the start (a shard waiting for its common start) and after the schedule (the last answers)
            String when = elapsed < 0 ? "attack starts in " + Durations.format(-elapsed / 1_000_000 * 1_000_000)
                    : elapsed > durationNanos ? "attack: the " + Durations.format(durationNanos) + " schedule is over, waiting for the last answers;"
                    : "attack " + Durations.format(elapsed / 1_000_000 * 1_000_000) + " of " + Durations.format(durationNanos);
            long sendingNanos = Math.min(Math.max(elapsed, 0), durationNanos);
            return String.format(Locale.ROOT, "%s  sent %d  rate %s/s  in flight %d  errors %d%s%s",
                    when, sent, dev.blocklab.load.Rates.number(sendingNanos > 0 ? sent / (sendingNanos / 1e9) : 0.0),
                    inFlight, recorder.failureCount(), conns >= 0 ? "  connections " + conns : "",
                    retried > 0 ? "  retried " + retried : "");
        }
    }
}
