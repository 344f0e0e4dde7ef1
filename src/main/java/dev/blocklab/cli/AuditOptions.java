package dev.blocklab.cli;

import dev.blocklab.audit.AuditCondition;
import dev.blocklab.audit.AuditResult;
import dev.blocklab.audit.AuditSettings;
import dev.blocklab.audit.Auditor;
import dev.blocklab.report.ResultsFile;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** The misuse auditor's options that {@code run}, {@code reproduce} and {@code serve} share, as one picocli mixin. */
final class AuditOptions {
    @Option(names = "--audit", description = "Audit for misuse while running: blocking on event loops, the common pool or fork-join workers, "
            + "pinned virtual threads, stalled carriers, each with its line (JFR in process and a watchdog; docs/audit.md).")
    boolean audit;

    @Option(names = "--audit-threshold", paramLabel = "D",
            description = "With --audit: blockings shorter than D are not recorded (default: ${DEFAULT-VALUE}).")
    String threshold;

    @Option(names = "--audit-stall", paramLabel = "D",
            description = "With --audit: an event loop or carrier without progress for D is a stall (default: ${DEFAULT-VALUE}).")
    String stall;

    @Option(names = "--fail-if", paramLabel = "COND",
            description = "With --audit: exit 1 when COND holds, e.g. 'misuse>0' (findings not blocking by design) or 'findings>0'; repeatable.")
    List<String> failIf = new ArrayList<>();

    @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec mixee;   // the command using these options: which of them were given

    private int exitCode;

    /** Validates the options and starts the auditor, or returns null without {@code --audit}. */
    Auditor start() {
        List<AuditCondition> conditions = conditions();
        if (!audit) {
            if (!conditions.isEmpty()) throw new IllegalArgumentException("--fail-if needs --audit");
            for (String option : List.of("--audit-threshold", "--audit-stall"))
                if (Flags.given(mixee, option))
                    throw new IllegalArgumentException(option + " needs --audit");
            return null;
        }
        long thresholdNanos = threshold.trim().equals("0") ? 0 : Flags.duration("--audit-threshold", threshold);
        return Auditor.start(new AuditSettings(thresholdNanos, Flags.duration("--audit-stall", stall),
                AuditSettings.DEFAULT_SAMPLE_PERIOD_NANOS));
    }

    private List<AuditCondition> conditions() { return failIf.stream().map(AuditCondition::parse).toList(); }

    /** Finishes {@code auditor} (from {@link #start}) and saves each finding to {@code file} as an {@code audit} line. */
    AuditResult finish(Auditor auditor, ResultsFile file) {
        AuditResult audited = auditor.finish();
        audited.findings().forEach(f -> file.write("audit", f));
        return audited;
    }

    /**
     * The exit code for {@code result}: 1 when a {@code --fail-if} condition holds (each printed on {@code err}), else 0;
     * also what {@link #exitCode()} answers from then on.
     */
    int exitCode(AuditResult result, PrintWriter err) {
        int code = 0;
        for (AuditCondition c : conditions()) {
            var violation = c.violation(result);
            if (violation.isPresent()) {
                err.println("blocklab: " + violation.get());
                code = 1;
            }
        }
        err.flush();
        exitCode = code;
        return code;
    }

    /** The exit code of the last {@link #exitCode(AuditResult, PrintWriter)}; 0 before (and without {@code --audit}). */
    int exitCode() { return exitCode; }
}
