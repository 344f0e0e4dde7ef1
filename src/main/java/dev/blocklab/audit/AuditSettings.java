package dev.blocklab.audit;

/**
 * The auditor's thresholds, in nanoseconds.
 *
 * @param thresholdNanos     a JFR blocking event shorter than this is not recorded (JFR's own threshold)
 * @param stallNanos         an event loop or carrier without progress for this long is a stall
 * @param samplePeriodNanos  how often the watchdog samples event loops and carriers
 */
public record AuditSettings(long thresholdNanos, long stallNanos, long samplePeriodNanos) {
    public static final long DEFAULT_THRESHOLD_NANOS = 10_000_000L;
    public static final long DEFAULT_STALL_NANOS = 200_000_000L;
    public static final long DEFAULT_SAMPLE_PERIOD_NANOS = 20_000_000L;

    public AuditSettings {
        if (thresholdNanos < 0) throw new IllegalArgumentException("--audit-threshold must not be negative");
        if (samplePeriodNanos <= 0) throw new IllegalArgumentException("the watchdog's sample period must be positive");
        if (stallNanos < 2 * samplePeriodNanos)
            throw new IllegalArgumentException("--audit-stall must be at least twice the watchdog's period ("
                    + samplePeriodNanos / 1_000_000 + " ms)");
    }

    public static AuditSettings defaults() {
        return new AuditSettings(DEFAULT_THRESHOLD_NANOS, DEFAULT_STALL_NANOS, DEFAULT_SAMPLE_PERIOD_NANOS);
    }
}
