package dev.blocklab.result;

/**
 * Context switches of the whole process during a run, from {@code getrusage(RUSAGE_SELF)}: voluntary (a thread
 * blocked or slept) and involuntary (the kernel preempted a runnable thread). -1 where getrusage is unavailable.
 */
public record ContextSwitches(long voluntary, long involuntary) {
    public ContextSwitches minus(ContextSwitches earlier) {
        if (voluntary < 0 || earlier.voluntary < 0) return new ContextSwitches(-1, -1);
        return new ContextSwitches(voluntary - earlier.voluntary, involuntary - earlier.involuntary);
    }

    /** The switches of both intervals added; -1 where either is unknown. */
    public ContextSwitches plus(ContextSwitches other) {
        if (voluntary < 0 || other.voluntary < 0) return new ContextSwitches(-1, -1);
        return new ContextSwitches(voluntary + other.voluntary, involuntary + other.involuntary);
    }

    public long total() { return voluntary < 0 ? -1 : voluntary + involuntary; }
}
