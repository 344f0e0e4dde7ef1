package dev.blocklab.report;

import dev.blocklab.result.AttackResult;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** The report formats of {@code blocklab attack --format}. */
public enum AttackReportFormat {
    /** vegeta's text layout, plus 99.9/99.99 percentiles, service time and late sends. */
    TEXT(TextAttackReport::new),
    /** One JSON object, keys in a fixed order. */
    JSON(JsonAttackReport::new),
    /** HdrHistogram's percentile spectrum of the latency, in milliseconds. */
    HDR(HdrAttackReport::new);

    private final Supplier<Report<AttackResult>> factory;

    AttackReportFormat(Supplier<Report<AttackResult>> factory) { this.factory = factory; }

    public Report<AttackResult> create() { return factory.get(); }

    /** Parses {@code text}, {@code json} or {@code hdr}; an unknown name throws naming the flag. */
    public static AttackReportFormat parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--format: '" + name + "' is not one of "
                    + Arrays.stream(values()).map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
        }
    }
}
