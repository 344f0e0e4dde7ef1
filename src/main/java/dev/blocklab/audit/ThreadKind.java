package dev.blocklab.audit;

/** What a thread is for, which decides whether blocking on it is a misuse. */
public enum ThreadKind {
    /** A non-blocking loop: Vert.x and Netty event loops, Reactor's parallel and single schedulers, RxJava's computation pool. */
    EVENT_LOOP("event loop"),
    /** A worker of {@code ForkJoinPool.commonPool()}, where {@code supplyAsync} and parallel streams run by default. */
    COMMON_POOL("common pool"),
    /** A worker of another {@code ForkJoinPool}: blocking is fine only through {@code ManagedBlocker}. */
    FORK_JOIN("fork-join worker"),
    /** A platform thread carrying virtual threads (the default scheduler's {@code CarrierThreads}). */
    CARRIER("carrier"),
    /** A virtual thread: blocking is its purpose, pinning its carrier is not. */
    VIRTUAL("virtual thread"),
    /** Any other platform thread (pools sized for blocking, timers, the caller): blocking there is allowed. */
    OTHER("other");

    private final String label;

    ThreadKind(String label) { this.label = label; }

    public String label() { return label; }
}
