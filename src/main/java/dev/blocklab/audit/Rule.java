package dev.blocklab.audit;

/** What the auditor flags; the name is what reports and {@code --fail-if} print. docs/audit.md explains each. */
public enum Rule {
    BLOCKING_ON_EVENT_LOOP("blocking-on-event-loop",
            "a thread that must never block (event loop, Reactor parallel, RxJava computation) slept, parked, waited or did blocking I/O"),
    BLOCKING_ON_COMMON_POOL("blocking-on-common-pool",
            "a worker of ForkJoinPool.commonPool() blocked outside ManagedBlocker: supplyAsync, parallel streams and every other user of the pool wait"),
    FORK_JOIN_WITHOUT_MANAGED_BLOCKER("fork-join-without-managed-blocker",
            "a ForkJoinPool worker blocked outside ManagedBlocker, so the pool could not add a spare thread"),
    VIRTUAL_THREAD_PINNED("virtual-thread-pinned",
            "a virtual thread blocked while pinned to its carrier (native or FFM frame, class initialiser), holding the carrier"),
    STALLED_EVENT_LOOP("stalled-event-loop",
            "an event loop made no progress (same stack, no CPU time) for longer than the stall threshold"),
    STALLED_CARRIER("stalled-carrier",
            "a carrier made no progress (a virtual thread mounted on it, same stack, no CPU time) for longer than the stall threshold, e.g. blocked in native code");

    private final String id;
    private final String meaning;

    Rule(String id, String meaning) {
        this.id = id;
        this.meaning = meaning;
    }

    @com.fasterxml.jackson.annotation.JsonValue
    public String id() { return id; }

    public String meaning() { return meaning; }
}
