package dev.blocklab.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The watchdog's decisions, as a pure state machine over samples (no threads, no clock of its own).
 *
 * <p>An <em>episode</em> starts when an event loop or a carrier is seen busy (its stack is not an idle wait) and
 * lasts while the following samples show the same stack. An episode is a stall when it lasted at least
 * {@code stallNanos} and the thread's CPU time grew by less than {@value #MAX_CPU_SHARE_PERCENT} % of that time:
 * the thread was neither waiting for work nor computing. Garbage-collection time in the episode does not count
 * towards it. A stall is reported once, when its episode ends (or at
 * {@link #finish()}), with its whole duration; {@link #observe} tells the caller when an episode first becomes a
 * stall, so that it can look up the stack worth reporting (a carrier's own stack only shows that a virtual thread
 * is mounted) and hand it to {@link #resolve}.
 *
 * <p>Not thread-safe: one watchdog thread owns it.
 */
public final class StallTracker {
    static final int MAX_CPU_SHARE_PERCENT = 10;
    static final int MAX_LOOKUPS = 3;

    /**
     * One look at a thread.
     *
     * @param atNanos  monotonic time of the sample
     * @param at       the same instant on the wall clock (to attribute the stall to a run)
     * @param cpuNanos the thread's CPU time so far, or -1 when unknown
     * @param stack    innermost frame first
     * @param pausedNanos the process's stop-the-world GC time so far: a pause is not the thread's stall
     */
    public record Sample(long threadId, String threadName, long atNanos, Instant at, long cpuNanos, List<Frame> stack,
                         long pausedNanos) {
        public Sample(long threadId, String threadName, long atNanos, Instant at, long cpuNanos, List<Frame> stack) {
            this(threadId, threadName, atNanos, at, cpuNanos, stack, 0);
        }
    }

    private static final class Episode {
        final Sample first;
        Sample last;
        boolean stalled;
        String reportedName;
        List<Frame> reportedStack;
        boolean dropped;
        int lookups;
        Episode(Sample first) { this.first = first; this.last = first; }
    }

    private final long stallNanos;
    private final Map<Long, Episode> episodes = new HashMap<>();
    private final List<Blocking> stalls = new ArrayList<>();

    public StallTracker(long stallNanos) { this.stallNanos = stallNanos; }

    /**
     * Feeds one sample.
     *
     * @return true when the thread's episode is a stall whose stack is not resolved yet (at most
     *         {@value #MAX_LOOKUPS} times an episode): call {@link #resolve} next
     */
    public boolean observe(Sample s) {
        ThreadKind kind = Classifier.kind(s.threadName(), false, "", s.stack());
        boolean watched = kind == ThreadKind.EVENT_LOOP || kind == ThreadKind.CARRIER;
        Episode e = episodes.get(s.threadId());
        if (!watched || Classifier.idle(s.stack())) {
            if (e != null) end(episodes.remove(s.threadId()));
            return false;
        }
        if (e == null || !e.first.stack().equals(s.stack())) {
            if (e != null) end(e);
            episodes.put(s.threadId(), new Episode(s));
            return false;
        }
        e.last = s;
        if (!e.stalled && stalled(e)) e.stalled = true;
        if (e.stalled && e.reportedStack == null && e.lookups < MAX_LOOKUPS) {
            e.lookups++;
            return true;
        }
        return false;
    }

    /**
     * The stack to report for the thread's current stall, e.g. the stuck virtual thread's; {@code drop} when
     * another source reports it already (a pinned virtual thread parked on its carrier is JFR's to report).
     */
    public void resolve(long threadId, String threadName, List<Frame> stack, boolean drop) {
        Episode e = episodes.get(threadId);
        if (e == null) return;
        e.reportedName = threadName;
        e.reportedStack = List.copyOf(stack);
        e.dropped = drop;
    }

    /** Ends every episode; returns every stall seen since the last call. */
    public List<Blocking> finish() {
        episodes.values().forEach(this::end);
        episodes.clear();
        return drain();
    }

    /** The stalls whose episodes have ended since the last call. */
    public List<Blocking> drain() {
        List<Blocking> out = List.copyOf(stalls);
        stalls.clear();
        return out;
    }

    private boolean stalled(Episode e) {
        long wall = e.last.atNanos() - e.first.atNanos() - (e.last.pausedNanos() - e.first.pausedNanos());
        if (wall < stallNanos) return false;
        if (e.first.cpuNanos() < 0 || e.last.cpuNanos() < 0) return true;
        return (e.last.cpuNanos() - e.first.cpuNanos()) * 100 < wall * MAX_CPU_SHARE_PERCENT;
    }

    private void end(Episode e) {
        if (!e.stalled || e.dropped || !stalled(e)) return;
        stalls.add(new Blocking(Blocking.WATCHDOG, e.reportedName != null ? e.reportedName : e.first.threadName(),
                false, "", e.first.at(), e.last.atNanos() - e.first.atNanos(),
                e.reportedStack != null ? withCarrierMark(e.reportedStack) : e.first.stack()));
    }

    /** Keeps the carrier's kind visible when the reported stack is the mounted virtual thread's. */
    private static List<Frame> withCarrierMark(List<Frame> stack) {
        List<Frame> out = new ArrayList<>(stack);
        if (!Classifier.kind("", false, "", out).equals(ThreadKind.CARRIER))
            out.add(new Frame("java.lang.VirtualThread", "runContinuation", -1));
        return out;
    }
}
