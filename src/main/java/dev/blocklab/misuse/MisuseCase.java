package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;

import java.util.Optional;

/**
 * One program of the showcase: a wrong way to wait, or the correct way beside it.
 *
 * <p>{@link #run} sends {@code requests} requests, each waiting about {@code blockNanos}, and returns when all
 * are done; it releases every thread it started. Not thread-safe: one run at a time.
 */
public interface MisuseCase {
    /** The name in reports, e.g. {@code supplyasync-common-pool (wrong)}. */
    String name();

    /** One line: what it does. */
    String description();

    /** For a wrong case, the rule and line the auditor must report; empty for a correct one. */
    Optional<Expected> expected();

    void run(int requests, long blockNanos) throws Exception;

    /**
     * How long this case should block, given the showcase's block time and the audit's stall threshold: the
     * block time, except for a case that only a watchdog stall can reveal.
     */
    default long blockNanos(long blockNanos, long stallNanos) { return blockNanos; }

    /**
     * What the auditor must find.
     *
     * @param rule      the rule broken
     * @param className the class of the line that blocks
     * @param line      the line (known once {@link #run} has run)
     */
    record Expected(Rule rule, String className, int line) {}
}
