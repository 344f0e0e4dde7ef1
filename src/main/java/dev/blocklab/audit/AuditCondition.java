package dev.blocklab.audit;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CI condition over an audit, {@code --fail-if 'misuse>0'}: the command exits 1 when it holds. Metrics:
 * {@code misuse} (findings not blocking by design) and {@code findings} (all of them); comparisons
 * {@code > >= < <=} against a whole number.
 */
public record AuditCondition(String metric, String comparison, long limit, String text) {
    private static final Pattern SYNTAX = Pattern.compile("\\s*(misuse|findings)\\s*(>=|<=|>|<)\\s*(\\d{1,9})\\s*");

    /** Parses a condition; an error names {@code --fail-if} and gives an example. */
    public static AuditCondition parse(String text) {
        Matcher m = SYNTAX.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches())
            throw new IllegalArgumentException("--fail-if: '" + text + "' is not an audit condition (e.g. 'misuse>0'; metrics: misuse, findings)");
        return new AuditCondition(m.group(1), m.group(2), Long.parseLong(m.group(3)), text.trim());
    }

    public long measure(AuditResult r) {
        return metric.equals("misuse") ? r.misuse() : r.findings().size();
    }

    /** A line such as {@code fail-if misuse>0: misuse was 3}, when the condition holds. */
    public Optional<String> violation(AuditResult r) {
        long v = measure(r);
        boolean holds = switch (comparison) {
            case ">" -> v > limit;
            case ">=" -> v >= limit;
            case "<" -> v < limit;
            default -> v <= limit;
        };
        return holds ? Optional.of("fail-if " + text + ": " + metric + " was " + v) : Optional.empty();
    }
}
