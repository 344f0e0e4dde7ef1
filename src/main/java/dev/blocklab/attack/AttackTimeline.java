package dev.blocklab.attack;

import dev.blocklab.result.AttackResult;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.Shard;
import dev.blocklab.workload.Arrival;
import dev.blocklab.result.AttackInterval;
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

    private final Arrival schedule;
    private final Shard shard;
    private final long intervalNanos;
    private final TreeMap<Long, Bucket> buckets = new TreeMap<>();

    /** A timeline of an attack on {@code schedule}, cut into intervals of {@code intervalNanos}. */
    public AttackTimeline(Arrival schedule, long intervalNanos) { this(schedule, Shard.WHOLE, intervalNanos); }

    /** A timeline of {@code shard}'s share of {@code schedule}: its scheduled counts are the shard's. */
    public AttackTimeline(Arrival schedule, Shard shard, long intervalNanos) {
        this.shard = java.util.Objects.requireNonNull(shard, "shard");
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
     * {@code untilNanos} after the start, and counting as scheduled only the requests due before it: an attack
     * stopped early ends at its stop, with no intervals, or part of one, of requests it never came to send.
     */
    public List<AttackInterval> intervals(long untilNanos) {
        long last;
        TreeMap<Long, Bucket> copy = new TreeMap<>();
        synchronized (this) {
            for (var e : buckets.entrySet()) copy.put(e.getKey(), e.getValue().copy());
        }
        last = copy.isEmpty() ? -1 : copy.lastKey();
        long padTo = Math.min(AttackSettings.durationNanos(schedule), untilNanos);
        if (schedule instanceof Arrival.Open && padTo > 0) last = Math.max(last, (padTo - 1) / intervalNanos);
        List<AttackInterval> out = new ArrayList<>();
        for (long k = 0; k <= last; k++) {
            long start = k * intervalNanos, end = start + intervalNanos;
            Bucket b = copy.get(k);
            Histogram h = b == null ? null : b.latencyNanos;
            boolean any = h != null && h.getTotalCount() > 0;
            out.add(new AttackInterval(start, end, scheduled(start, Math.max(start, Math.min(end, untilNanos))), b == null ? 0 : b.sent,
                    b == null ? 0 : b.completed, b == null ? 0 : b.errors,
                    any ? h.getValueAtPercentile(50) / 1e6 : null, any ? h.getValueAtPercentile(90) / 1e6 : null,
                    any ? h.getValueAtPercentile(99) / 1e6 : null, any ? h.getMaxValue() / 1e6 : null));
        }
        return List.copyOf(out);
    }

    /** Requests the pacer makes due in {@code [start, end)} before the schedule's end; null for closed users. */
    private Long scheduled(long start, long end) {
        if (!(schedule instanceof Arrival.Open open)) return null;
        Pacer p = open.pacer();
        long d = open.durationNanos();
        long to = Math.min(end, d), from = Math.min(start, d);
        return dueBefore(p, to) - dueBefore(p, from);
    }

    /** This shard's requests due strictly before {@code nanos}. */
    private long dueBefore(Pacer p, long nanos) { return shard.dueBefore(p, nanos); }

    /**
     * One interval's raw counts, for merging timelines of shards: what {@link #counts()} exports and
     * {@link #add} adds in. The histogram is the caller's (a copy).
     */
    public record IntervalCounts(long sent, long completed, long errors, Histogram latencyNanos) {}

    /** Every interval that holds a send or a completion, by its number ({@code k} of {@code [k·I, (k+1)·I)}); copies. */
    public synchronized java.util.SortedMap<Long, IntervalCounts> counts() {
        TreeMap<Long, IntervalCounts> out = new TreeMap<>();
        buckets.forEach((k, b) -> out.put(k, new IntervalCounts(b.sent, b.completed, b.errors, b.latencyNanos.copy())));
        return out;
    }

    /** Adds {@code c} (another timeline's interval {@code k}, on the same start and interval) into this one. */
    public synchronized void add(long k, IntervalCounts c) {
        Bucket b = buckets.computeIfAbsent(k, x -> new Bucket());
        b.sent += c.sent();
        b.completed += c.completed();
        b.errors += c.errors();
        b.latencyNanos.add(c.latencyNanos());
    }

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
