package dev.blocklab.audit;

import java.util.List;
import java.util.Optional;

/**
 * The subjects that block on purpose: the lab measures what that costs. Their findings are reported with the
 * reason and are not counted as misuse. Each entry is a subject prefix and the rule it breaks on purpose.
 */
public final class ByDesign {
    private record Entry(String subjectPrefix, Rule rule, String reason) {}

    private static final List<Entry> ENTRIES = List.of(
            new Entry("forkjoin:", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER,
                    "blocking by design: forkjoin:N blocks its workers without ManagedBlocker, so the pool cannot add threads (seed 003's point; compare forkjoin-managed:N)"),
            new Entry("play-2.5", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER,
                    "blocking by design: the play-2.5 profile runs blocking endpoints on Play's fork-join dispatcher (the talk's point)"),
            new Entry("event-loop", Rule.BLOCKING_ON_EVENT_LOOP,
                    "blocking by design: the event-loop profile's blocking endpoints run on the event loop to show the harm"),
            new Entry("event-loop", Rule.STALLED_EVENT_LOOP,
                    "blocking by design: the event-loop profile's blocking endpoints run on the event loop to show the harm"));

    private ByDesign() {}

    /** Why {@code subject} breaks {@code rule} on purpose, or empty when it should not. */
    public static Optional<String> reason(String subject, Rule rule) {
        for (Entry e : ENTRIES)
            if (e.rule() == rule && subject.startsWith(e.subjectPrefix())) return Optional.of(e.reason());
        return Optional.empty();
    }
}
