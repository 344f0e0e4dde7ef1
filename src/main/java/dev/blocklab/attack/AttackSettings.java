package dev.blocklab.attack;

import java.util.List;

/**
 * Everything an attack needs; shared by the CLI and library callers.
 *
 * @param targets            requests to send, round-robin, at least one
 * @param schedule           open rate or closed users, with the duration
 * @param timeoutNanos       a request without a complete response this long after its actual send fails
 *                           with a timeout error
 * @param maxConnections     cap on open connections per target host; below it, connections open as requests
 *                           need them (docs/attack.md, "Connections"); requests beyond wait in the client's
 *                           queue (their wait counts in latency, which starts at the intended send time)
 * @param lateThresholdNanos a send that leaves more than this behind its schedule counts as late
 * @param intervalNanos      length of the interval histograms handed to {@link AttackListener#onInterval}
 * @param client             which HTTP client sends
 * @param warmupNanos        before the measured attack, send at the schedule's starting rate for this long and
 *                           discard the results (0 for none)
 */
public record AttackSettings(List<Target> targets, Schedule schedule, long timeoutNanos, int maxConnections,
                             long lateThresholdNanos, long intervalNanos, Client client, long warmupNanos) {

    /** Defaults, in one place. */
    public static final long DEFAULT_TIMEOUT_NANOS = 30_000_000_000L;
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final long DEFAULT_LATE_THRESHOLD_NANOS = 1_000_000L;
    public static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;
    /** Warm-up before the measured schedule, unless the schedule is shorter (then as long as it). */
    public static final long DEFAULT_WARMUP_NANOS = 3_000_000_000L;

    /** The HTTP clients; Vert.x is the default because it measured faster here (docs/attack.md). */
    public enum Client { VERTX, JDK }

    public AttackSettings {
        targets = List.copyOf(targets);
        if (targets.isEmpty()) throw new IllegalArgumentException("an attack needs at least one target");
        if (schedule == null) throw new IllegalArgumentException("an attack needs a schedule");
        if (timeoutNanos <= 0) throw new IllegalArgumentException("--timeout must be positive");
        if (maxConnections < 1) throw new IllegalArgumentException("--max-connections must be at least 1, got " + maxConnections);
        if (lateThresholdNanos < 0) throw new IllegalArgumentException("the late threshold must not be negative");
        if (intervalNanos < 1_000_000) throw new IllegalArgumentException("the histogram interval must be at least 1ms");
        if (client == null) client = Client.VERTX;
        if (warmupNanos < 0) throw new IllegalArgumentException("--warmup must not be negative");
    }

    /** Defaults for everything but the targets and the schedule (a warm-up included: {@link #defaultWarmupNanos}). */
    public static AttackSettings of(List<Target> targets, Schedule schedule) {
        return new AttackSettings(targets, schedule, DEFAULT_TIMEOUT_NANOS, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_LATE_THRESHOLD_NANOS, DEFAULT_INTERVAL_NANOS, Client.VERTX, defaultWarmupNanos(schedule));
    }

    /** The default warm-up for {@code schedule}: {@link #DEFAULT_WARMUP_NANOS}, or the schedule's duration if shorter. */
    public static long defaultWarmupNanos(Schedule schedule) {
        return Math.min(DEFAULT_WARMUP_NANOS, schedule.durationNanos());
    }

    public AttackSettings withTimeoutNanos(long nanos) {
        return new AttackSettings(targets, schedule, nanos, maxConnections, lateThresholdNanos, intervalNanos, client, warmupNanos);
    }

    public AttackSettings withMaxConnections(int n) {
        return new AttackSettings(targets, schedule, timeoutNanos, n, lateThresholdNanos, intervalNanos, client, warmupNanos);
    }

    public AttackSettings withWarmupNanos(long nanos) {
        return new AttackSettings(targets, schedule, timeoutNanos, maxConnections, lateThresholdNanos, intervalNanos, client, nanos);
    }

    public AttackSettings withClient(Client c) {
        return new AttackSettings(targets, schedule, timeoutNanos, maxConnections, lateThresholdNanos, intervalNanos, c, warmupNanos);
    }
}
