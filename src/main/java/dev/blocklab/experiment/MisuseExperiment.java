package dev.blocklab.experiment;

import dev.blocklab.audit.AuditResult;
import dev.blocklab.audit.AuditSettings;
import dev.blocklab.audit.Auditor;
import dev.blocklab.audit.Finding;
import dev.blocklab.misuse.MisuseCase;
import dev.blocklab.misuse.MisuseCases;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code reproduce misuse}: the showcase of {@link MisuseCases}, each wrong case beside its correct one, under
 * one {@link Auditor}. A wrong case passes when the auditor reports its rule at its line; a correct one when the
 * auditor reports nothing for it. Rows are {@link MisuseRow}s; the audit's own table follows. Under an audit
 * already on ({@code reproduce misuse --audit}) the cases are that audit's runs, judged at its thresholds, and its
 * table is the command's, printed once at its end.
 */
final class MisuseExperiment implements Experiment {
    /** How long each blocking waits: well over the audit's 10 ms threshold, whatever the time scale. */
    static final long BLOCK_NANOS = 50_000_000L;
    static final int QUICK_REQUESTS = 4;
    static final int FULL_REQUESTS = 16;

    private final List<MisuseCase> cases;
    private final AuditSettings audit;

    MisuseExperiment() { this(MisuseCases.all(), AuditSettings.defaults()); }

    MisuseExperiment(List<MisuseCase> cases, AuditSettings audit) {
        this.cases = List.copyOf(cases);
        this.audit = audit;
    }

    /**
     * How long each case blocks: {@link #BLOCK_NANOS}, or 5 x the audit's threshold when that is more, so a wrong
     * case outlasts the threshold of an audit already on ({@code reproduce misuse --audit --audit-threshold 100ms}).
     */
    static long blockNanos(AuditSettings audit) { return Math.max(BLOCK_NANOS, 5 * audit.thresholdNanos()); }

    @Override public String name() { return "misuse"; }

    @Override public String description() {
        return "the misuse auditor on deliberately wrong concurrency beside the correct way: each wrong case flagged with its rule and line, each correct one clean";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) throws Exception {
        int requests = settings.full() ? FULL_REQUESTS : QUICK_REQUESTS;
        Optional<Auditor> caller = Auditor.active();
        AuditResult audited;
        try (Auditor own = caller.isEmpty() ? Auditor.start(audit) : null) {
            Auditor auditor = caller.orElse(own);
            long blockNanos = blockNanos(auditor.settings());
            for (MisuseCase c : cases) {
                settings.progress().update(c.name());
                long block = c.blockNanos(blockNanos, auditor.settings().stallNanos());
                auditor.during(c.name(), () -> { c.run(requests, block); return null; });
            }
            audited = own == null ? auditor.soFar() : own.finish();
        }
        List<MisuseRow> rows = new ArrayList<>();
        for (MisuseCase c : cases) {
            MisuseRow row = row(c.name(), c.description(), c.expected(), audited.of(c.name()));
            settings.rowSink().accept(row);
            rows.add(row);
        }
        List<List<String>> cells = rows.stream().map(r -> List.of(r.caseName(), r.expectedRule(), r.expectedLine(),
                r.found().isEmpty() ? "-" : String.join("; ", r.found()), r.verdict())).toList();
        Table table = new Table("misuse showcase: " + requests + " requests a case, each blocking " + blockNanos(audited.settings()) / 1_000_000
                + " ms (the native call " + 2 * audited.settings().stallNanos() / 1_000_000 + " ms, to outlast the stall threshold)",
                List.of("case", "expected rule", "expected line", "found", "verdict"), cells);
        long wrongAsExpected = rows.stream().filter(r -> r.wrong() && r.asExpected()).count();
        long correctAsExpected = rows.stream().filter(r -> !r.wrong() && r.asExpected()).count();
        List<String> notes = new ArrayList<>();
        notes.add(wrongAsExpected + " of " + rows.stream().filter(MisuseRow::wrong).count() + " wrong cases flagged with the expected rule at the expected line; "
                + correctAsExpected + " of " + rows.stream().filter(r -> !r.wrong()).count() + " correct cases clean.");
        for (MisuseCase c : cases) notes.add(c.name() + ": " + c.description());
        ExperimentResult result = new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(),
                rows, List.of(table), notes);
        return caller.isPresent() ? result : audited.appendTo(result);
    }

    /** Pure: the verdict on one case from what the auditor found for it. */
    static MisuseRow row(String name, String description, Optional<MisuseCase.Expected> expected, List<Finding> found) {
        List<String> shown = found.stream().map(f -> f.rule().id() + " at " + f.culprit()).toList();
        if (expected.isEmpty())
            return new MisuseRow(name, false, description, "-", "-", shown, found.isEmpty() ? MisuseRow.CLEAN : MisuseRow.FALSE_POSITIVE);
        MisuseCase.Expected e = expected.get();
        boolean hit = found.stream().anyMatch(f -> f.rule() == e.rule() && f.culprit().className().equals(e.className())
                && f.culprit().line() == e.line());
        String file = new dev.blocklab.audit.Frame(e.className(), "?", e.line()).file();
        return new MisuseRow(name, true, description, e.rule().id(), file + ":" + e.line(), shown, hit ? MisuseRow.FLAGGED : MisuseRow.MISSED);
    }
}
