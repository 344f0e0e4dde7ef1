package dev.blocklab.attack;

import dev.blocklab.load.SendLoop;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.LatencyMillis;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The concurrent side of an attack's measurements. {@link #sent} and {@link #record} may be called from any
 * threads at once without locking (HdrHistogram {@link Recorder}s, {@link LongAdder}s, one
 * {@link ConcurrentHashMap} put and remove per request); {@link #drainInterval}, {@link #cutOff} and
 * {@link #result} from one thread at a time (they are synchronized). Results are built only from drained
 * totals, so a report never sees a histogram being written.
 *
 * <p>Each request in flight is kept by its index with its intended and actual send times, from {@link #sent} to
 * its {@link #record}. When the attack ends with requests still in flight, {@link #cutOff} records each of them
 * with the latency it had reached by then (a lower bound), so a target that stalls at the end cannot look
 * faster than it was. Whoever removes a request from the map records it: its completion or the cut-off, never
 * both.
 */
final class AttackRecorder {
    /** Latencies up to an hour at 3 significant digits. */
    static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;
    /** Distinct error texts kept; further ones are counted under one entry. */
    static final int MAX_DISTINCT_ERRORS = 100;
    static final String OTHER_ERRORS = "(more distinct errors than " + MAX_DISTINCT_ERRORS + ")";

    private final Measure latency = new Measure();
    private final Measure service = new Measure();
    // The attacker's own delays per request (see InstrumentHealth): send lateness, the client picking the request
    // up (hand-off), both together, and the wait for a connection.
    private final Measure sendLateness = new Measure();
    private final Measure handOff = new Measure();
    private final Measure ownDelay = new Measure();
    private final Measure connectionWait = new Measure();
    // Latency from the actual send, as clients that do not correct for coordinated omission count it.
    private final Measure fromSend = new Measure();

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
    private final Map<Long, InFlight> inFlight = new ConcurrentHashMap<>(1024);
    private final LongAdder cutOffCount = new LongAdder();

    /** A request sent and not yet recorded; times attack-relative. */
    private record InFlight(int target, long intendedNanos, long sentNanos, long bytesOut) {}

    /**
     * Request {@code index} (unique in this recorder) for target {@code target}, due at {@code intendedNanos},
     * left at {@code sentNanos} (both attack-relative) with {@code bytes} of body. Call before handing it to the
     * client, so its completion always finds it.
     */
    void sent(long index, int target, long intendedNanos, long sentNanos, long bytes) {
        inFlight.put(index, new InFlight(target, intendedNanos, sentNanos, bytes));
        sent.increment();
        bytesOut.add(bytes);
        firstSendNanos.accumulateAndGet(sentNanos, Math::min);
        lastSendNanos.accumulateAndGet(sentNanos, Math::max);
    }

    /**
     * One response or error; {@code endNanos} attack-relative. Returns false, recording nothing, when the
     * request was already counted by {@link #cutOff} (its response came after the report was made).
     */
    boolean record(Hit hit, long endNanos) { return record(hit, endNanos, 0); }

    /**
     * {@link #record(Hit, long)} for a request that waited {@code connectionWaitNanos} for a connection (the
     * rest of the time between its send and leaving on a connection is the client's hand-off).
     */
    boolean record(Hit hit, long endNanos, long connectionWaitNanos) {
        if (inFlight.remove(hit.index()) == null) return false;
        count(hit, connectionWaitNanos);
        lastEndNanos.accumulateAndGet(endNanos, Math::max);
        return true;
    }

    private void count(Hit hit, long connectionWaitNanos) {
        latency.record(hit.latencyNanos());
        service.record(hit.serviceNanos());
        long late = Math.max(0, hit.sentNanos() - hit.intendedNanos());
        long beforeWire = Math.max(0, hit.latencyNanos() - hit.serviceNanos() - late);
        long wait = Math.min(beforeWire, Math.max(0, connectionWaitNanos));
        sendLateness.record(late);
        handOff.record(beforeWire - wait);
        ownDelay.record(late + beforeWire - wait);
        connectionWait.record(wait);
        fromSend.record(hit.latencyNanos() - late);
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
        completed.increment();
    }

    /**
     * Records every request still in flight as cut off at {@code reportNanos} (attack-relative): status 0 with
     * {@code error}, latency {@code reportNanos} minus its intended send time and service time minus its actual
     * send (lower bounds of what it would have taken). Returns their hits in index order; a second call finds
     * none. The last response time (and so the wait duration) stays that of the last real response.
     */
    synchronized List<Hit> cutOff(long reportNanos, String error) {
        List<Hit> hits = new ArrayList<>();
        for (Long index : inFlight.keySet()) {
            InFlight f = inFlight.remove(index);
            if (f == null) continue; // completed meanwhile: its completion records it
            Hit hit = new Hit(index, f.target(), f.intendedNanos(), f.sentNanos(), reportNanos - f.intendedNanos(),
                    reportNanos - f.sentNanos(), 0, 0, f.bytesOut(), error);
            count(hit, 0);
            cutOffCount.increment();
            hits.add(hit);
        }
        hits.sort(java.util.Comparator.comparingLong(Hit::index));
        return hits;
    }

    private static long clamp(long nanos) { return Math.min(Math.max(0, nanos), HIGHEST_TRACKABLE_NANOS); }

    long sentCount() { return sent.sum(); }
    long completedCount() { return completed.sum(); }
    long failureCount() { return failures.sum(); }

    /** Latencies completed since the last call (a new histogram), also added to the totals. */
    synchronized Histogram drainInterval() {
        Histogram interval = latency.drain();
        service.drain();
        sendLateness.drain();
        handOff.drain();
        ownDelay.drain();
        connectionWait.drain();
        fromSend.drain();
        return interval.copy();
    }

    /** One measure: a recorder that many threads write, drained into its running total. */
    private static final class Measure {
        private final Recorder recorder = new Recorder(HIGHEST_TRACKABLE_NANOS, 3);
        final Histogram total = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        private Histogram scratch;

        void record(long nanos) { recorder.recordValue(clamp(nanos)); }

        /** What was recorded since the last drain (a histogram the recorder recycles), added to the total. */
        Histogram drain() {
            scratch = recorder.getIntervalHistogram(scratch);
            total.add(scratch);
            return scratch;
        }
    }

    /**
     * The result, after sending has ended, as of {@code reportNanos} (attack-relative). Requests still in flight
     * are first {@linkplain #cutOff cut off} with {@code cutOffError}: they count as status 0 with that error, in
     * the latency and service-time histograms up to {@code reportNanos}, and in {@link AttackResult#cutOff()}.
     * The instrument's health is assessed from {@code measured} and the attacker's own delay per request.
     */
    synchronized AttackResult result(String description, SendLoop.Outcome loop, long lateThresholdNanos,
                                     long reportNanos, String cutOffError, InstrumentHealth.Measured measured,
                                     long retried) {
        cutOff(reportNanos, cutOffError);
        drainInterval();
        long requests = sent.sum();
        Map<Integer, Long> codes = new TreeMap<>();
        statuses.forEach((k, v) -> codes.merge(k, v.sum(), Long::sum));
        Map<String, Long> errs = new TreeMap<>();
        errors.forEach((k, v) -> errs.put(k, v.sum()));
        long first = firstSendNanos.get(), lastSend = lastSendNanos.get(), lastEnd = lastEndNanos.get();
        long attack = requests == 0 ? 0 : lastSend - first;
        long wait = requests == 0 || lastEnd == Long.MIN_VALUE ? 0 : Math.max(0, lastEnd - lastSend);
        long total = attack + wait;
        long ok = successes.sum();
        LatencyMillis latencyMillis = LatencyMillis.of(latency.total);
        InstrumentHealth health = InstrumentHealth.assess(requests + loop.unsent(), loop.unsent(), ok, latencyMillis,
                new InstrumentHealth.OwnDelays(LatencyMillis.of(sendLateness.total), LatencyMillis.of(handOff.total),
                        LatencyMillis.of(ownDelay.total), LatencyMillis.of(connectionWait.total),
                        LatencyMillis.of(fromSend.total)), measured);
        return new AttackResult(description, requests, loop.unsent(),
                attack > 0 ? requests / (attack / 1e9) : 0, total > 0 ? ok / (total / 1e9) : 0,
                total, attack, wait, latencyMillis, LatencyMillis.of(service.total),
                bytesIn.sum(), bytesOut.sum(), ok, requests == 0 ? 0 : (double) ok / requests,
                new TreeMap<>(codes), new TreeMap<>(errs), loop.lateSends(), lateThresholdNanos, loop.maxLateNanos(),
                loop.stopped(), cutOffCount.sum(), latency.total, service.total, health, retried);
    }
}
