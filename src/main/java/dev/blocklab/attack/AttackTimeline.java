package dev.blocklab.attack;

import dev.blocklab.result.AttackInterval;
import dev.blocklab.driver.Pacer;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Collects an attack's timeline as an {@link AttackListener}: per fixed interval ({@code [k·I, (k+1)·I)} after the
 * start, {@code I} the attack's interval setting) the requests scheduled, sent, completed and failed, and the
 * latency percentiles of the completions. Intervals are cut from each hit's own times, not from the monitor's
 * ticks, so the boundaries are exact and the same hits always give the same timeline.
 *
 * <p>Threads: {@link #onHit} may be called from many threads at once (it locks this object for a histogram
 * record and three counter increments); {@link #intervals()} may be called from any thread, and sees every hit
 * whose {@code onHit} returned before it was called. Latencies are kept per interval at 2 significant digits
 * (about 25 KB an interval), the totals of the attack stay in {@link AttackResult} at 3.
 */
public final class AttackTimeline implements AttackListener {
    private static final long LOWEST_NANOS = 1_000;

    private final Schedule schedule;
    private final long intervalNanos;
    private final TreeMap<Long, Bucket> buckets = new TreeMap<>();

    /** A timeline of an attack on {@code schedule}, cut into intervals of {@code intervalNanos}. */
    public AttackTimeline(Schedule schedule, long intervalNanos) {
        if (intervalNanos <= 0) throw new IllegalArgumentException("the timeline's interval must be positive, got " + intervalNanos + " ns");
        this.schedule = java.util.Objects.requireNonNull(schedule, "schedule");
        this.intervalNanos = intervalNanos;
    }

    public long intervalNanos() { return intervalNanos; }

    @Override public void onHit(Hit hit) {
        long completedAt = hit.intendedNanos() + hit.latencyNanos();
        long latency = Math.min(Math.max(hit.latencyNanos(), LOWEST_NANOS), AttackRecorder.HIGHEST_TRACKABLE_NANOS);
        synchronized (this) {
            bucket(hit.sentNanos()).sent++;
            Bucket done = bucket(completedAt);
            done.completed++;
            if (hit.error() != null) done.errors++;
            done.latencyNanos.recordValue(latency);
        }
    }

    private Bucket bucket(long nanos) {
        return buckets.computeIfAbsent(Math.max(0, nanos) / intervalNanos, k -> new Bucket());
    }

    /**
     * The timeline so far: one interval from 0 up to the last interval that holds a send, a completion or a
     * scheduled request, with empty intervals in between; immutable.
     */
    public List<AttackInterval> intervals() { return intervals(Long.MAX_VALUE); }

    /**
     * The timeline so far, as {@link #intervals()}, but padded with scheduled-only intervals no further than
     * {@code untilNanos} after the start: an attack stopped early ends at its stop, with no intervals of
     * requests it never came to send.
     */
    public List<AttackInterval> intervals(long untilNanos) {
        long last;
        TreeMap<Long, Bucket> copy = new TreeMap<>();
        synchronized (this) {
            for (var e : buckets.entrySet()) copy.put(e.getKey(), e.getValue().copy());
        }
        last = copy.isEmpty() ? -1 : copy.lastKey();
        long padTo = Math.min(schedule.durationNanos(), untilNanos);
        if (schedule instanceof Schedule.Open && padTo > 0) last = Math.max(last, (padTo - 1) / intervalNanos);
        List<AttackInterval> out = new ArrayList<>();
        for (long k = 0; k <= last; k++) {
            long start = k * intervalNanos, end = start + intervalNanos;
            Bucket b = copy.get(k);
            Histogram h = b == null ? null : b.latencyNanos;
            boolean any = h != null && h.getTotalCount() > 0;
            out.add(new AttackInterval(start, end, scheduled(start, end), b == null ? 0 : b.sent,
                    b == null ? 0 : b.completed, b == null ? 0 : b.errors,
                    any ? h.getValueAtPercentile(50) / 1e6 : null, any ? h.getValueAtPercentile(90) / 1e6 : null,
                    any ? h.getValueAtPercentile(99) / 1e6 : null, any ? h.getMaxValue() / 1e6 : null));
        }
        return List.copyOf(out);
    }

    /** Requests the pacer makes due in {@code [start, end)} before the schedule's end; null for closed users. */
    private Long scheduled(long start, long end) {
        if (!(schedule instanceof Schedule.Open open)) return null;
        Pacer p = open.pacer();
        long d = open.durationNanos();
        long to = Math.min(end, d), from = Math.min(start, d);
        return dueBefore(p, to) - dueBefore(p, from);
    }

    /** Requests due strictly before {@code nanos}. */
    private static long dueBefore(Pacer p, long nanos) { return nanos <= 0 ? 0 : p.dueBy(nanos - 1); }

    /** One interval's counts; guarded by the timeline's lock. */
    private static final class Bucket {
        final Histogram latencyNanos;
        long sent, completed, errors;

        Bucket() { this(new Histogram(LOWEST_NANOS, AttackRecorder.HIGHEST_TRACKABLE_NANOS, 2)); }

        private Bucket(Histogram h) { latencyNanos = h; }

        Bucket copy() {
            Bucket b = new Bucket(latencyNanos.copy());
            b.sent = sent;
            b.completed = completed;
            b.errors = errors;
            return b;
        }
    }
}
