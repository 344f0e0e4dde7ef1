package dev.blocklab.recorder;

import dev.blocklab.result.Outcome;
import org.HdrHistogram.Histogram;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Records each request's latency, outcome and completion time. {@link #record} may be called from any number of
 * threads at once and never blocks; the getters are meant for after the run and for progress lines.
 *
 * <p>Implementation overview. A batch of a million requests completes on every carrier at once, and its
 * latencies grow monotonically (each completion comes later than the last), so one shared histogram, even
 * HdrHistogram's concurrent {@code Recorder}, puts several atomic updates per request on the same cache lines
 * (its phaser's counters, the bucket, the total count, and a new maximum every time): measured with JFR, 18 % of
 * the engine's CPU samples at a million requests. Instead the recorder keeps a few stripes, each a plain
 * {@link Histogram} with its own success count behind a one-word try-lock. A writer tries the stripe its thread id
 * picks and, if another thread holds it, the next one, so it never waits; with more stripes than cores it finds a
 * free one at once. Readers take every stripe's lock in turn and add up. The last completion time is kept the same
 * way, per stripe, under the lock already taken: a shared maximum (a {@code LongAccumulator} in the driver before)
 * takes a new value at every completion of a batch, and a new virtual thread's first update of a
 * {@code LongAccumulator} takes its contended path (a fresh thread's probe is 0). JFR put half of the engine's
 * samples at a million requests in it; wall and CPU time did not measurably move when it went (docs/benchmarks.md).
 */
public final class RunRecorder {
    /** Latencies up to an hour at 3 significant digits. */
    private static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    private final Stripe[] stripes;
    private final LongAdder failures = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder cancelled = new LongAdder();
    private final Map<String, LongAdder> causes = new ConcurrentHashMap<>();
    private final AtomicReference<Object> firstAnswer = new AtomicReference<>();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

    /** With four stripes per core, rounded up to a power of two, at most 64. */
    public RunRecorder() {
        this(Math.min(64, Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1) << 1));
    }

    /** @param stripeCount how many histograms writers spread over; a power of two */
    RunRecorder(int stripeCount) {
        if (stripeCount < 1 || Integer.bitCount(stripeCount) != 1)
            throw new IllegalArgumentException("stripe count must be a power of two, got " + stripeCount);
        stripes = new Stripe[stripeCount];
        for (int i = 0; i < stripeCount; i++) stripes[i] = new Stripe();
        // Initialised here, on the thread that sets the run up: when the first completions did it, the virtual
        // threads completing beside them waited for its initialiser pinned, and the misuse auditor flagged the
        // lab's own recorder (virtual-thread-pinned at RunRecorder.acquire, 4 to 8 ms)
        CurrentCpu.index();
    }

    /**
     * Records one request that answered {@code value} at {@code endNanos} ({@link System#nanoTime}); the same as
     * {@code record(endNanos, latency, new Success(value))}.
     */
    public void recordSuccess(long endNanos, long latencyNanos, Object value) {
        recordLatency(endNanos, latencyNanos, true);
        if (firstAnswer.get() == null) firstAnswer.compareAndSet(null, value);
    }

    /** Records one request that completed at {@code endNanos} ({@link System#nanoTime}). */
    public void record(long endNanos, long latencyNanos, Outcome outcome) {
        switch (outcome) {
            case Outcome.Success s -> recordSuccess(endNanos, latencyNanos, s.value());
            case Outcome.Failure f -> {
                recordLatency(endNanos, latencyNanos, false);
                failures.increment();
                if (firstFailure.get() == null) firstFailure.compareAndSet(null, f.cause());
                causes.computeIfAbsent(f.cause().getClass().getName() + ": " + f.cause().getMessage(), k -> new LongAdder()).increment();
            }
            case Outcome.Timeout t -> {
                recordLatency(endNanos, latencyNanos, false);
                timeouts.increment();
                causes.computeIfAbsent("timeout: " + t.detail(), k -> new LongAdder()).increment();
            }
            case Outcome.Cancelled c -> {
                recordLatency(endNanos, latencyNanos, false);
                cancelled.increment();
            }
        }
    }

    private void recordLatency(long endNanos, long latencyNanos, boolean success) {
        Stripe stripe = acquire();
        try {
            stripe.histogram.recordValue(Math.min(Math.max(0, latencyNanos), HIGHEST_TRACKABLE_NANOS));
            if (success) stripe.successes++;
            if (stripe.histogram.getTotalCount() == 1 || endNanos - stripe.lastEndNanos > 0)   // the first, or later
                stripe.lastEndNanos = endNanos;
        } finally {
            stripe.release();
        }
    }

    /** A free stripe, locked: the one of the CPU this thread runs on (or of its id), or the next free one after it. */
    private Stripe acquire() {
        int mask = stripes.length - 1;
        int cpu = CurrentCpu.index();
        for (int i = cpu >= 0 ? cpu : (int) Thread.currentThread().threadId(); ; i++) {
            Stripe stripe = stripes[i & mask];
            if (stripe.tryLock()) return stripe;
            if ((i & mask) == mask) Thread.onSpinWait();   // every stripe was busy: more writers than stripes
        }
    }

    /** All latencies recorded so far, in nanoseconds. */
    public Histogram histogram() {
        Histogram total = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        for (Stripe stripe : stripes) {
            stripe.lock();
            try {
                total.add(stripe.histogram);
            } finally {
                stripe.release();
            }
        }
        return total;
    }

    /** When the last request recorded so far completed ({@link System#nanoTime}), or {@code orElse} when none was. */
    public long lastEndNanos(long orElse) {
        boolean any = false;
        long last = orElse;
        for (Stripe stripe : stripes) {
            stripe.lock();
            try {
                if (stripe.histogram.getTotalCount() > 0 && (!any || stripe.lastEndNanos - last > 0)) {
                    last = stripe.lastEndNanos;
                    any = true;
                }
            } finally {
                stripe.release();
            }
        }
        return last;
    }

    public long successes() {
        long sum = 0;
        for (Stripe stripe : stripes) sum += stripe.successesVolatile();
        return sum;
    }

    public long failures() { return failures.sum(); }
    public long timeouts() { return timeouts.sum(); }
    public long cancelled() { return cancelled.sum(); }
    public long completed() { return successes() + failures() + timeouts() + cancelled(); }
    public Object firstAnswer() { return firstAnswer.get(); }
    /** The first failure recorded, with its stack, or null. */
    public Throwable firstFailure() { return firstFailure.get(); }

    /** Failure and timeout descriptions with their counts, sorted. */
    public Map<String, Long> causes() {
        Map<String, Long> out = new TreeMap<>();
        causes.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * One histogram and success count behind a try-lock. Stripes are made one after another, each followed by its
     * histogram's counts (a quarter of a megabyte), so two stripes' lock words never share a cache line.
     */
    private static final class Stripe {
        private static final VarHandle LOCKED;
        private static final VarHandle SUCCESSES;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                LOCKED = lookup.findVarHandle(Stripe.class, "locked", int.class);
                SUCCESSES = lookup.findVarHandle(Stripe.class, "successes", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private int locked;
        /** Written only under the lock; read without it (as a volatile) by progress lines. */
        long successes;
        /** Under the lock: the latest completion among the requests recorded here (none while histogram is empty). */
        long lastEndNanos;
        final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);

        boolean tryLock() { return (int) LOCKED.getOpaque(this) == 0 && LOCKED.compareAndSet(this, 0, 1); }

        void lock() {
            while (!tryLock()) Thread.onSpinWait();
        }

        /** Publishes what was written under the lock. */
        void release() { LOCKED.setRelease(this, 0); }

        long successesVolatile() { return (long) SUCCESSES.getVolatile(this); }
    }
}
