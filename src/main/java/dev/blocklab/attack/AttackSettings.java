package dev.blocklab.attack;

import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;

import java.util.List;
import java.util.Locale;

/**
 * Everything an attack needs; shared by the CLI and library callers.
 *
 * @param targets            requests to send, round-robin, at least one
 * @param schedule           an open arrival (constant rate, ramp or steps) or closed users, with the duration; not a batch
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
public record AttackSettings(List<Target> targets, Arrival schedule, long timeoutNanos, int maxConnections,
                             long lateThresholdNanos, long intervalNanos, Client client, long warmupNanos) {

    /** Defaults, in one place. */
    public static final long DEFAULT_TIMEOUT_NANOS = 30_000_000_000L;
    public static final int DEFAULT_MAX_CONNECTIONS = 10_000;
    public static final long DEFAULT_LATE_THRESHOLD_NANOS = 1_000_000L;
    public static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;
    /** Warm-up before the measured schedule, unless the schedule is shorter (then as long as it). */
    public static final long DEFAULT_WARMUP_NANOS = 3_000_000_000L;

    /**
     * The HTTP clients (docs/attack.md, "The HTTP client, chosen by measuring"): {@code NETTY}, the default, is
     * blocklab's own lean exchange on Netty over the same event loops and pool as {@code VERTX}, Vert.x's HTTP
     * client, which it replaced as the default because it took less CPU per request; {@code JDK} is
     * {@code java.net.http}.
     */
    public enum Client { VERTX, NETTY, JDK }

    public AttackSettings {
        targets = List.copyOf(targets);
        if (targets.isEmpty()) throw new IllegalArgumentException("an attack needs at least one target");
        if (schedule == null) throw new IllegalArgumentException("an attack needs a schedule");
        if (schedule instanceof Arrival.Batch) throw new IllegalArgumentException("an attack sends at a rate or by users, not a batch");
        if (timeoutNanos <= 0) throw new IllegalArgumentException("--timeout must be positive");
        if (maxConnections < 1) throw new IllegalArgumentException("--max-connections must be at least 1, got " + maxConnections);
        if (lateThresholdNanos < 0) throw new IllegalArgumentException("the late threshold must not be negative");
        if (intervalNanos < 1_000_000) throw new IllegalArgumentException("the histogram interval must be at least 1ms");
        if (client == null) client = Client.NETTY;
        if (warmupNanos < 0) throw new IllegalArgumentException("--warmup must not be negative");
    }

    /** Defaults for everything but the targets and the schedule (a warm-up included: {@link #defaultWarmupNanos}). */
    public static AttackSettings of(List<Target> targets, Arrival schedule) {
        return new AttackSettings(targets, schedule, DEFAULT_TIMEOUT_NANOS, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_LATE_THRESHOLD_NANOS, DEFAULT_INTERVAL_NANOS, Client.NETTY, defaultWarmupNanos(schedule));
    }

    /** The default warm-up for {@code schedule}: {@link #DEFAULT_WARMUP_NANOS}, or the schedule's duration if shorter. */
    public static long defaultWarmupNanos(Arrival schedule) {
        return Math.min(DEFAULT_WARMUP_NANOS, durationNanos(schedule));
    }

    /** How long {@code schedule} sends, in nanoseconds (0 for a batch, which an attack does not take). */
    public static long durationNanos(Arrival schedule) {
        return switch (schedule) {
            case Arrival.Open o -> o.durationNanos();
            case Arrival.Closed c -> c.durationNanos();
            case Arrival.Batch b -> 0;
        };
    }

    /** The schedule in the attack's words: {@code 1000/s for 10s}, {@code 100/s..5000/s over 30s for 30s}, {@code 50 users for 10s}. */
    public String scheduleLabel() {
        return switch (schedule) {
            case Arrival.Open o -> Arrival.Open.rateLabel(o.pacer(), AttackSettings::rate);
            case Arrival.Closed c -> c.users() + " users";
            case Arrival.Batch b -> b.label();
        } + " for " + Durations.format(durationNanos(schedule));
    }

    private static String rate(double perSecond) {
        return String.format(Locale.ROOT, perSecond == Math.rint(perSecond) ? "%.0f" : "%.2f", perSecond);
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
