package dev.blocklab.audit;

import java.util.List;
import java.util.Optional;

/**
 * The code that blocks on purpose: the lab measures what that costs. Its findings are reported with the reason
 * and are not counted as misuse. Each entry is a subject prefix (empty: any subject), the rule it breaks on
 * purpose, and optionally the frame it must be blocking under (a class and a method-name prefix).
 */
public final class ByDesign {
    private record Entry(String subjectPrefix, boolean exact, Rule rule, String frameClass, String methodPrefix, String reason) {
        Entry(String subjectPrefix, Rule rule, String reason) { this(subjectPrefix, false, rule, null, null, reason); }
        Entry(String subjectPrefix, Rule rule, String frameClass, String methodPrefix, String reason) {
            this(subjectPrefix, false, rule, frameClass, methodPrefix, reason);
        }
        /** An entry for one subject exactly (its name is the prefix of a correct entry's). */
        static Entry exactly(String subject, Rule rule, String reason) { return new Entry(subject, true, rule, null, null, reason); }

        boolean matches(String subject, Rule r, List<Frame> stack) {
            if (r != rule || !(exact ? subject.equals(subjectPrefix) : subject.startsWith(subjectPrefix))) return false;
            return frameClass == null || stack.stream().anyMatch(f -> f.className().equals(frameClass) && f.method().startsWith(methodPrefix));
        }
    }

    private static final List<Entry> ENTRIES = List.of(
            new Entry("forkjoin:", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER,
                    "blocking by design: forkjoin:N blocks its workers without ManagedBlocker, so the pool cannot add threads (seed 003's point; compare forkjoin-managed:N)"),
            Entry.exactly("scala-global", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER,
                    "blocking by design: scala-global blocks Scala's global fork-join pool without blocking { }, so the pool cannot add threads (seed 003's point; compare scala-global-blocking)"),
            new Entry("serve play-2.5", Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER,
                    "blocking by design: the play-2.5 profile runs blocking endpoints on Play's fork-join dispatcher (the talk's point)"),
            new Entry("serve event-loop", Rule.BLOCKING_ON_EVENT_LOOP,
                    "blocking by design: the event-loop profile's blocking endpoints run on the event loop to show the harm"),
            new Entry("serve event-loop", Rule.STALLED_EVENT_LOOP,
                    "blocking by design: the event-loop profile's blocking endpoints run on the event loop to show the harm"),
            new Entry("", Rule.BLOCKING_ON_COMMON_POOL, "dev.blocklab.server.ProfilePage", "lambda$asyncBlocking",
                    "blocking by design: the talk's /async-blocking wraps each blocking call in supplyAsync without an executor, on the common pool, to show the harm"));

    private ByDesign() {}

    /** Why {@code subject} breaks {@code rule} on purpose, blocking under {@code stack}, or empty when it should not. */
    public static Optional<String> reason(String subject, Rule rule, List<Frame> stack) {
        String measured = RunWindow.warmedUp(subject);   // a warm-up blocks by design where its model does
        for (Entry e : ENTRIES) if (e.matches(measured, rule, stack)) return Optional.of(e.reason());
        return Optional.empty();
    }
}
