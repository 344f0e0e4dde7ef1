package dev.blocklab.audit;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What one audit found, and how it looked.
 *
 * @param settings       the thresholds
 * @param findings       sorted by subject, rule and line
 * @param subjects       the runs audited, in order
 * @param eventsSeen     JFR events delivered (over the threshold, on any thread)
 * @param droppedCount   flagged blockings not kept (over {@value Auditor#MAX_KEPT}); their findings undercount
 * @param delivery       how much of the JFR stream the audit saw
 */
public record AuditResult(AuditSettings settings, List<Finding> findings, List<String> subjects, long eventsSeen,
                          long droppedCount, Delivery delivery) {
    public AuditResult {
        findings = List.copyOf(findings);
        subjects = List.copyOf(subjects);
        java.util.Objects.requireNonNull(delivery, "delivery");
    }

    /** How much of the JFR stream the audit saw, as far as it can know. */
    public enum Delivery {
        /** The stream delivered every event committed before the audit ended. */
        COMPLETE,
        /**
         * JFR shut down with the JVM (Ctrl-C or SIGTERM: its shutdown hook runs beside the command's) and its stream
         * ended before the audit did: blockings JFR recorded until then are in, any that ended after are not seen.
         */
        UNTIL_JFR_SHUTDOWN,
        /** The stream, still running, did not deliver everything in the time allowed: findings may be missing. */
        INCOMPLETE
    }

    /** Findings that are not blocking by design: what {@code --fail-if 'misuse>0'} counts. */
    public long misuse() { return Findings.misuse(findings); }

    /** The findings of one subject. */
    public List<Finding> of(String subject) {
        return findings.stream().filter(f -> f.subject().equals(subject)).toList();
    }

    /** One row per finding; for text, CSV, JSON and HTML alike. */
    public Table table() {
        List<List<String>> rows = new ArrayList<>();
        for (Finding f : findings)
            rows.add(List.of(f.subject(), f.rule().id(), f.threadKind().label(), Long.toString(f.count()),
                    ms(f.totalBlockedNanos()), ms(f.worstBlockedNanos()), f.culprit().toString(),
                    f.misuse() ? "MISUSE" : "by design"));
        for (String s : subjects)
            if (of(s).isEmpty()) rows.add(List.of(s, "-", "-", "0", "0.0", "0.0", "-", "clean"));
        return new Table("audit: blocking where it must not happen (JFR events over " + ms(settings.thresholdNanos())
                + " ms, watchdog stalls over " + ms(settings.stallNanos()) + " ms)",
                List.of("run", "rule", "thread", "count", "blocked total (ms)", "worst (ms)", "line", "verdict"), rows);
    }

    /** The frames of each finding, why the by-design ones are flagged, and how it was measured. */
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        for (Finding f : findings) {
            notes.add("audit " + f.subject() + " " + f.rule().id() + " on " + f.threadKind().label() + " (" + String.join(", ", f.events())
                    + "): " + f.topFrames().stream().map(Frame::toString).collect(Collectors.joining(" < ")));
            if (!f.misuse()) notes.add("audit " + f.subject() + ": " + f.byDesign());
        }
        notes.add("audit: " + misuse() + " misuse finding(s), " + (findings.size() - misuse()) + " by design; "
                + "JFR recording stream in process (" + String.join(", ", Auditor.EVENTS) + ", threshold "
                + ms(settings.thresholdNanos()) + " ms, with stacks) and a watchdog sampling event loops and carriers every "
                + ms(settings.samplePeriodNanos()) + " ms (stall: same stack, under 10 % CPU, for "
                + ms(settings.stallNanos()) + " ms); the line is the innermost frame outside the JDK and the frameworks; "
                + "a blocking belongs to the run in progress when it began; docs/audit.md");
        if (droppedCount > 0) notes.add("audit: " + droppedCount + " flagged blockings beyond " + Auditor.MAX_KEPT + " were not kept; counts undercount");
        switch (delivery) {
            case COMPLETE -> { }
            case UNTIL_JFR_SHUTDOWN -> notes.add("audit: JFR shut down with the JVM at the signal, before the audit ended: the findings hold "
                    + "the blockings it recorded until then; any that ended while the command stopped are not seen");
            case INCOMPLETE -> notes.add("audit: the JFR stream did not deliver every event before the audit stopped; findings may be missing");
        }
        return notes;
    }

    /** {@code result} with the audit's table and notes after its own. */
    public ExperimentResult appendTo(ExperimentResult result) {
        List<Table> tables = new ArrayList<>(result.tables());
        tables.add(table());
        List<String> notes = new ArrayList<>(result.notes());
        notes.addAll(notes());
        return new ExperimentResult(result.experiment(), result.description(), result.scale(), result.environment(),
                result.rows(), tables, notes, result.charts());
    }

    /** The audit as a result of its own ({@code audit}): rows are the {@link Finding}s, then the table and notes. */
    public ExperimentResult asExperimentResult(dev.blocklab.result.Environment environment) {
        return new ExperimentResult("audit", "the misuse auditor: blocking on event loops, the common pool and fork-join workers, pinned virtual threads, stalled carriers",
                "threshold " + ms(settings.thresholdNanos()) + " ms, stall " + ms(settings.stallNanos()) + " ms",
                environment, findings, List.of(table()), notes());
    }

    static String ms(long nanos) { return String.format(Locale.ROOT, "%.1f", nanos / 1e6); }
}
