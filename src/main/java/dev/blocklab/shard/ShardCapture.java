package dev.blocklab.shard;

import dev.blocklab.attack.Attack;
import dev.blocklab.attack.AttackListener;
import dev.blocklab.attack.AttackTimeline;
import dev.blocklab.attack.Hit;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What a shard must keep beyond its {@link dev.blocklab.result.AttackResult} for an exact merge, as an
 * {@link AttackListener}: its timeline's raw per-interval counts and histograms, and its first and last send and
 * last response, all on the common start's time base. Thread-safe as the listener contract asks.
 */
public final class ShardCapture implements AttackListener {
    private final AttackTimeline timeline;
    private final AtomicLong firstSendNanos = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastSendNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong lastEndNanos = new AtomicLong(Long.MIN_VALUE);

    /** Captures into {@code timeline}, a timeline of this shard's share (it may also serve the shard's own reports). */
    public ShardCapture(AttackTimeline timeline) { this.timeline = timeline; }

    public AttackTimeline timeline() { return timeline; }

    @Override public void onHit(Hit hit) {
        timeline.onHit(hit);
        firstSendNanos.accumulateAndGet(hit.sentNanos(), Math::min);
        lastSendNanos.accumulateAndGet(hit.sentNanos(), Math::max);
        // as the recorder: a request cut off at the end has no response, and does not move the last response
        if (!Attack.CUT_OFF_ERROR.equals(hit.error()))
            lastEndNanos.accumulateAndGet(hit.intendedNanos() + hit.latencyNanos(), Math::max);
    }

    /** The first send, nanoseconds after the start; null when nothing was sent. */
    Long firstSendNanos() { return firstSendNanos.get() == Long.MAX_VALUE ? null : firstSendNanos.get(); }

    Long lastSendNanos() { return lastSendNanos.get() == Long.MIN_VALUE ? null : lastSendNanos.get(); }

    /** The last response (not a cut-off), nanoseconds after the start; null when none came. */
    Long lastEndNanos() { return lastEndNanos.get() == Long.MIN_VALUE ? null : lastEndNanos.get(); }
}
