package dev.blocklab.recorder;

import dev.blocklab.result.Outcome;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Records each request's latency and outcome. {@link #record} may be called from any number of threads at
 * once without locking (HdrHistogram's {@link Recorder} and {@link LongAdder}s); the getters are meant for
 * after the run and for progress lines.
 */
public final class RunRecorder {
    /** Latencies up to an hour at 3 significant digits. */
    private static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    private final Recorder latencies = new Recorder(HIGHEST_TRACKABLE_NANOS, 3);
    private final Histogram total = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    private final LongAdder successes = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder cancelled = new LongAdder();
    private final Map<String, LongAdder> causes = new ConcurrentHashMap<>();
    private final AtomicReference<Object> firstAnswer = new AtomicReference<>();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();

    /** Records one completed request. */
    public void record(long latencyNanos, Outcome outcome) {
        latencies.recordValue(Math.min(Math.max(0, latencyNanos), HIGHEST_TRACKABLE_NANOS));
        switch (outcome) {
            case Outcome.Success s -> {
                successes.increment();
                if (firstAnswer.get() == null) firstAnswer.compareAndSet(null, s.value());
            }
            case Outcome.Failure f -> {
                failures.increment();
                if (firstFailure.get() == null) firstFailure.compareAndSet(null, f.cause());
                causes.computeIfAbsent(f.cause().getClass().getName() + ": " + f.cause().getMessage(), k -> new LongAdder()).increment();
            }
            case Outcome.Timeout t -> {
                timeouts.increment();
                causes.computeIfAbsent("timeout: " + t.detail(), k -> new LongAdder()).increment();
            }
            case Outcome.Cancelled c -> cancelled.increment();
        }
    }

    /** All latencies recorded so far, in nanoseconds. Call from one thread at a time. */
    public synchronized Histogram histogram() {
        latencies.getIntervalHistogramInto(scratch);
        total.add(scratch);
        scratch.reset();
        return total.copy();
    }

    private final Histogram scratch = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);

    public long successes() { return successes.sum(); }
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
}
