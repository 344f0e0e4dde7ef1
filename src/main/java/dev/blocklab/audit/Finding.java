package dev.blocklab.audit;

import java.util.List;
import java.util.Objects;

/**
 * What the auditor found: every blocking of one run (model or variant) that broke one rule at one line.
 *
 * @param subject             the model or variant whose run was in progress, e.g. {@code forkjoin:4}
 * @param rule                the rule broken
 * @param threadKind          where it happened
 * @param events              the JFR event types (or {@code watchdog}) that saw it, sorted
 * @param count               how many times
 * @param totalBlockedNanos   the sum of the blocked durations, in nanoseconds
 * @param worstBlockedNanos   the longest one, in nanoseconds
 * @param culprit             the innermost frame outside the JDK and the frameworks: the line that blocked
 * @param topFrames           the stack from the culprit down (a few frames)
 * @param byDesign            why this subject blocks on purpose, or null when it should not block (then it is misuse)
 */
public record Finding(String subject, Rule rule, ThreadKind threadKind, List<String> events, long count,
                      long totalBlockedNanos, long worstBlockedNanos, Frame culprit, List<Frame> topFrames,
                      String byDesign) {
    public Finding {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(rule, "rule");
        events = List.copyOf(events);
        topFrames = List.copyOf(topFrames);
    }

    /** True when this finding counts toward {@code misuse}: not blocking by design. */
    public boolean misuse() { return byDesign == null; }
}
