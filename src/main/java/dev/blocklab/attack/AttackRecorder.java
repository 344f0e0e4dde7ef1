package dev.blocklab.attack;

import dev.blocklab.result.LatencyMillis;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The concurrent side of an attack's measurements. {@link #sent} and {@link #record} may be called from any
 * threads at once without locking (HdrHistogram {@link Recorder}s, {@link LongAdder}s); {@link #drainInterval}
 * and {@link #result} from one thread at a time (they are synchronized). Results are built only from drained
 * totals, so a report never sees a histogram being written.
 */
final class AttackRecorder {
    /** Latencies up to an hour at 3 significant digits. */
    static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;
    /** Distinct error texts kept; further ones are counted under one entry. */
    static final int MAX_DISTINCT_ERRORS = 100;
    static final String OTHER_ERRORS = "(more distinct errors than " + MAX_DISTINCT_ERRORS + ")";

    private final Recorder latency = new Recorder(HIGHEST_TRACKABLE_NANOS, 3);
    private final Recorder service = new Recorder(HIGHEST_TRACKABLE_NANOS, 3);
    private final Histogram totalLatency = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    private final Histogram totalService = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
    private Histogram latencyScratch, serviceScratch;

    private final LongAdder sent = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final AtomicLong firstSendNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastSendNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong lastEndNanos = new AtomicLong(Long.MIN_VALUE);

    /** A request left at {@code sentNanos} (attack-relative) with {@code bytes} of body. */
    void sent(long sentNanos, long bytes) {
        sent.increment();
        bytesOut.add(bytes);
        firstSendNanos.accumulateAndGet(sentNanos, Math::min);
        lastSendNanos.accumulateAndGet(sentNanos, Math::max);
    }

    /** One response or error; {@code endNanos} attack-relative. */
    void record(Hit hit, long endNanos) {
        latency.recordValue(clamp(hit.latencyNanos()));
        service.recordValue(clamp(hit.serviceNanos()));
        statuses.computeIfAbsent(hit.status(), k -> new LongAdder()).increment();
        bytesIn.add(hit.bytesIn());
        if (hit.success()) successes.increment();
        if (hit.error() != null) {
            failures.increment();
            LongAdder a = errors.get(hit.error());
            if (a == null && errors.size() >= MAX_DISTINCT_ERRORS) a = errors.computeIfAbsent(OTHER_ERRORS, k -> new LongAdder());
            else if (a == null) a = errors.computeIfAbsent(hit.error(), k -> new LongAdder());
            a.increment();
        }
        lastEndNanos.accumulateAndGet(endNanos, Math::max);
        completed.increment();
    }

    private static long clamp(long nanos) { return Math.min(Math.max(0, nanos), HIGHEST_TRACKABLE_NANOS); }

    long sentCount() { return sent.sum(); }
    long completedCount() { return completed.sum(); }
    long failureCount() { return failures.sum(); }

    /** Latencies completed since the last call (a new histogram), also added to the totals. */
    synchronized Histogram drainInterval() {
        latencyScratch = latency.getIntervalHistogram(latencyScratch);
        serviceScratch = service.getIntervalHistogram(serviceScratch);
        totalLatency.add(latencyScratch);
        totalService.add(serviceScratch);
        return latencyScratch.copy();
    }

    /**
     * The result, after sending has ended. Requests sent but never completed (cut off by a stop) count as
     * status 0 with the error {@code cutOffError}.
     */
    synchronized AttackResult result(String description, SendLoop.Outcome loop, long lateThresholdNanos, String cutOffError) {
        drainInterval();
        long requests = sent.sum();
        Map<Integer, Long> codes = new TreeMap<>();
        statuses.forEach((k, v) -> codes.merge(k, v.sum(), Long::sum));
        Map<String, Long> errs = new TreeMap<>();
        errors.forEach((k, v) -> errs.put(k, v.sum()));
        long cutOff = requests - completed.sum();
        if (cutOff > 0) {
            codes.merge(0, cutOff, Long::sum);
            errs.merge(cutOffError, cutOff, Long::sum);
        }
        long first = firstSendNanos.get(), lastSend = lastSendNanos.get(), lastEnd = lastEndNanos.get();
        long attack = requests == 0 ? 0 : lastSend - first;
        long wait = requests == 0 || lastEnd == Long.MIN_VALUE ? 0 : Math.max(0, lastEnd - lastSend);
        long total = attack + wait;
        long ok = successes.sum();
        return new AttackResult(description, requests, loop.unsent(),
                attack > 0 ? requests / (attack / 1e9) : 0, total > 0 ? ok / (total / 1e9) : 0,
                total, attack, wait, LatencyMillis.of(totalLatency), LatencyMillis.of(totalService),
                bytesIn.sum(), bytesOut.sum(), ok, requests == 0 ? 0 : (double) ok / requests,
                new TreeMap<>(codes), new TreeMap<>(errs), loop.lateSends(), lateThresholdNanos, loop.maxLateNanos(),
                loop.stopped(), totalLatency, totalService);
    }
}
