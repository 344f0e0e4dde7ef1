package dev.blocklab.result;

import dev.blocklab.result.LatencyMillis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The attacker's own health in one attack, measured in the same run, and the verdict whether the attacker,
 * not the target, set the reported numbers ({@code instrumentLimited}).
 *
 * <p>The verdict compares what the attacker itself added to each request with what was measured: a delay that
 * the attacker adds is harmless when it is small beside the latency it is part of, so the allowance scales with
 * latency ({@value #BUDGET_SHARE_OF_P99} of the latency p99, at least {@value #BUDGET_FLOOR_MILLIS} ms), and
 * with rate only through what was scheduled. The attacker is instrument-limited when
 * <ul>
 *   <li>more than {@value #UNSENT_SHARE} of the scheduled requests (and at least one) were never sent, or</li>
 *   <li>its own delay at the tail exceeds that allowance: the p99 of each request's own delay (how late the send
 *       loop handed it to the client, plus how long the client took to pick it up) plus the p99 of the event
 *       loops' lag (how long a response that arrived waited for its loop to read it; a probe timer every 5 ms,
 *       corrected for coordinated omission so a one-second stall counts as the 200 probes it held up).</li>
 * </ul>
 * Unless requests went unsent (a count, which decides whatever the target did), the verdict is not made
 * ({@link #notJudged}: neither limited nor OK) when the target failed, no request or fewer than
 * {@value #TARGET_FAILED_SUCCESS_SHARE} of them succeeding (the latencies are the failures', not a service to weigh
 * the attacker's delay against), nor when fewer than {@value #MIN_JUDGED_REQUESTS} requests were measured: the p99
 * of 60 requests is the slowest one, and one late first send (a cold connection, a compilation) is not the
 * attacker's tail.
 * Waiting for a connection ({@code delays.connectionWaitMillis}) is reported but does not decide the verdict:
 * below the connection cap a connection is opened as soon as a request waits, so the wait is the target's
 * accepting and answering on connections (or the cap the user chose). CPU figures do not decide it either (a
 * busy attacker that keeps its schedule is fine); they explain it.
 *
 * @param scheduled            requests the schedule wanted sent (sent plus unsent)
 * @param unsent               of those, never sent
 * @param delays               the attacker's delays per request, each a distribution
 * @param eventLoopLagP99Millis p99 of how late the client's event loops ran a periodic probe (NaN without loops)
 * @param eventLoopLagMaxMillis the worst such lateness (NaN without loops)
 * @param attackerCpuCores     the attacker process's CPU time over the measured wall time (cores busy)
 * @param eventLoopBusyShare   the busiest event loop's CPU time over the wall time, 0..1 (NaN without loops)
 * @param machineBusyShare     the whole machine's non-idle CPU share over the run, 0..1 ({@code /proc/stat}; NaN if unknown)
 * @param lagWaitingShare      of the event loops' lateness (probes over 5 ms late), the share their threads spent
 *                             runnable but waiting for a CPU, 0..1 (Linux schedstat; NaN if unknown or never late)
 * @param lagRunningShare      the share they spent running, 0..1 (the rest: stopped, by a JVM pause or a block)
 * @param cores                processors available to the attacker
 * @param budgetMillis         the attacker's allowance at the tail: max(1 ms, 5 % of the latency p99)
 * @param instrumentLimited    the verdict
 * @param reasons              why the verdict fired (empty when it did not)
 * @param notJudged            why the verdict was not made (too few requests, or the target failed), or null when it
 *                             was (null too in records written before it existed)
 */
public record InstrumentHealth(long scheduled, long unsent, OwnDelays delays,
                               double eventLoopLagP99Millis, double eventLoopLagMaxMillis, double attackerCpuCores,
                               double eventLoopBusyShare, double machineBusyShare, double lagWaitingShare,
                               double lagRunningShare, int cores, double budgetMillis,
                               boolean instrumentLimited, List<String> reasons, String notJudged) {

    /** The attacker's tail allowance, as a share of the latency p99. */
    public static final double BUDGET_SHARE_OF_P99 = 0.05;
    /** The smallest allowance: below a millisecond, scheduling noise of any client is of this order. */
    public static final double BUDGET_FLOOR_MILLIS = 1.0;
    /** Unsent requests above this share of the scheduled ones make the verdict. */
    public static final double UNSENT_SHARE = 0.001;
    /**
     * The fewest measured requests on which the attacker's delay is judged at p99: at 500 (a default attack, 50/s for
     * 10 s) the p99 rests on the slowest five, below 100 it is the slowest one, so one stall (a cold first send)
     * would decide it.
     */
    public static final long MIN_JUDGED_REQUESTS = 500;
    /** A target whose successes are below this share of the requests sent (none at all included) failed. */
    public static final double TARGET_FAILED_SUCCESS_SHARE = 0.01;

    /** True when the target failed: requests were sent and none, or fewer than 1 % of them, succeeded. */
    public static boolean targetFailed(long requests, long successes) {
        return requests > 0 && successes < TARGET_FAILED_SUCCESS_SHARE * requests;
    }

    public InstrumentHealth {
        reasons = List.copyOf(reasons);
    }

    /**
     * The time between each request's intended send and its leaving on a connection, in parts (latency minus
     * service time is their sum), in milliseconds.
     *
     * @param sendLatenessMillis   intended send time to the request's hand-over to the client (where the client's
     *                             event loops pace the schedule, to the loop's send)
     * @param handOffMillis        hand-over to the client picking the request up (its event loop's queue; about
     *                             nothing where the loops pace the schedule themselves)
     * @param ownMillis            the two together, per request: the attacker's own delay
     * @param connectionWaitMillis picked up to leaving on a connection: waiting for a free or a new connection
     * @param latencyFromSendMillis each request's latency counted from its actual send instead of its intended one:
     *                             what a client that does not correct for coordinated omission (vegeta, wrk)
     *                             reports, so the two tools compare on one clock; latency minus send lateness
     *                             (empty in results written before it was measured)
     */
    public record OwnDelays(LatencyMillis sendLatenessMillis, LatencyMillis handOffMillis, LatencyMillis ownMillis,
                            LatencyMillis connectionWaitMillis, LatencyMillis latencyFromSendMillis) {
        public OwnDelays {
            if (latencyFromSendMillis == null) latencyFromSendMillis = LatencyMillis.EMPTY;
        }

        /** Only send lateness known (the rest zero): for tests and clients that report nothing more. */
        public static OwnDelays sendLatenessOnly(LatencyMillis sendLateness) {
            return new OwnDelays(sendLateness, LatencyMillis.EMPTY, sendLateness, LatencyMillis.EMPTY, LatencyMillis.EMPTY);
        }
    }

    /** What the attack measured about itself; the verdict is derived from it. */
    public record Measured(double eventLoopLagP99Millis, double eventLoopLagMaxMillis, double attackerCpuCores,
                           double eventLoopBusyShare, double machineBusyShare, double lagWaitingShare,
                           double lagRunningShare, int cores) {
        /** Without the lag's causes (not measured). */
        public Measured(double eventLoopLagP99Millis, double eventLoopLagMaxMillis, double attackerCpuCores,
                        double eventLoopBusyShare, double machineBusyShare, int cores) {
            this(eventLoopLagP99Millis, eventLoopLagMaxMillis, attackerCpuCores, eventLoopBusyShare, machineBusyShare,
                    Double.NaN, Double.NaN, cores);
        }

        /** Nothing measured beyond the requests themselves (a client without event loops, or a test). */
        public static Measured none(int cores) { return new Measured(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, cores); }
    }

    /**
     * The health and its verdict for an attack whose latencies are {@code latency}, judging the attacker alone: as
     * if every request sent succeeded (for figures without a success count).
     */
    public static InstrumentHealth assess(long scheduled, long unsent, LatencyMillis latency, OwnDelays delays, Measured m) {
        return assess(scheduled, unsent, scheduled - unsent, latency, delays, m);
    }

    /** The health and its verdict for an attack whose latencies are {@code latency}, {@code successes} of its requests succeeding. */
    public static InstrumentHealth assess(long scheduled, long unsent, long successes, LatencyMillis latency, OwnDelays delays, Measured m) {
        return assess(scheduled, unsent, successes, latency, delays, m, "");
    }

    /**
     * As above, where {@code delays} are those of one part of the attack: {@code delaysOf} says which beside their
     * count of requests in an unjudged verdict (a merge: " in all shards, of 755 sent").
     */
    public static InstrumentHealth assess(long scheduled, long unsent, long successes, LatencyMillis latency, OwnDelays delays, Measured m,
                                          String delaysOf) {
        return assess(scheduled, unsent, successes, latency, delays, m, delaysOf, delays.ownMillis().count());
    }

    /**
     * As above, judged once {@code measured} requests were measured in all: a merge whose worst shard's own delays
     * cover fewer requests than the verdict takes, but whose shards together cover enough, is judged on that
     * shard's delays (its p99 over fewer requests, the larger if anything).
     */
    public static InstrumentHealth assess(long scheduled, long unsent, long successes, LatencyMillis latency, OwnDelays delays, Measured m,
                                          String delaysOf, long measured) {
        double budget = Math.max(BUDGET_FLOOR_MILLIS, BUDGET_SHARE_OF_P99 * latency.p99());
        List<String> reasons = new ArrayList<>();
        // unsent requests are a count, not a percentile: they decide whatever the target did and however few were sent
        if (unsent > 0 && unsent > UNSENT_SHARE * scheduled)
            reasons.add(String.format(Locale.ROOT, "%d of %d scheduled requests were never sent", unsent, scheduled));
        double lag = Double.isNaN(m.eventLoopLagP99Millis()) ? 0 : m.eventLoopLagP99Millis();
        double added = delays.ownMillis().p99() + lag;
        String notJudged = null;
        long sent = scheduled - unsent;
        if (targetFailed(sent, successes)) {
            if (reasons.isEmpty())
                notJudged = String.format(Locale.ROOT, "the target failed (%d of %d requests succeeded), so there is no service time"
                        + " to weigh the attacker's delay against", successes, sent);
        } else if (measured == 0 && sent == 0) {
            if (reasons.isEmpty()) notJudged = "no request was measured";
        } else if (measured < MIN_JUDGED_REQUESTS) {
            if (reasons.isEmpty())
                notJudged = String.format(Locale.ROOT, "too few requests (%d%s) to judge the instrument at p99 (it takes %d)",
                        measured, delaysOf, MIN_JUDGED_REQUESTS);
        } else if (added > budget) {
            reasons.add(String.format(Locale.ROOT,
                    "the attacker added up to %s at p99 (its own delay before sending %s plus event-loop lag %s, each its p99), over its allowance of %s (%.0f%% of the latency p99, at least %s)",
                    ms(added), ms(delays.ownMillis().p99()), ms(lag), ms(budget), BUDGET_SHARE_OF_P99 * 100, ms(BUDGET_FLOOR_MILLIS)));
        }
        return new InstrumentHealth(scheduled, unsent, delays, m.eventLoopLagP99Millis(), m.eventLoopLagMaxMillis(),
                m.attackerCpuCores(), m.eventLoopBusyShare(), m.machineBusyShare(), m.lagWaitingShare(), m.lagRunningShare(),
                m.cores(), budget,
                !reasons.isEmpty(), reasons, notJudged);
    }

    /** False when the verdict was not made ({@link #notJudged}): neither instrument-limited nor OK. */
    public boolean judged() {
        return notJudged == null;
    }

    /** How the verdict line names a limit that came from other processes, not from the attacker's own work. */
    public static final String MACHINE_SATURATED = "the machine was saturated by other work";
    /**
     * What an instrument-limited verdict says the attacker set: the latencies and the rate it sent at; the answers'
     * status codes are the target's all the same (a target shedding with 503 is shedding whoever sends).
     */
    public static final String ATTACKER_SET = "the attacker, not the target, set the latency and rate figures (the status codes are the target's)";
    /** How the verdict line names event loops that were late mostly for want of a CPU. */
    public static final String WAITED_FOR_CORES = "its event loops were late mostly waiting for a core";

    /**
     * One line naming the verdict and its reasons, or the margin the attacker kept. When the whole machine was
     * busy (90 % or more) while the attacker itself used under half a core, the line says the machine was
     * saturated by other work: the load generator fell behind for want of CPU, not for its own cost. When the
     * event loops' lateness is known by cause, the line gives the split; if their lag was the larger part of
     * what the attacker added and they were late mostly runnable but waiting for a CPU, it says so first: other
     * threads held the cores (on a shared machine the target's among them), so the stall may be the target's as
     * much as the attacker's.
     */
    public String verdictLine() {
        if (instrumentLimited)
            return "INSTRUMENT-LIMITED: " + (saturatedByOthers() ? MACHINE_SATURATED + ", so " : "")
                    + (waitedForCores() ? WAITED_FOR_CORES + " (runnable while other threads held the CPUs: the"
                    + " target's if it shares the machine, whose own requests then waited too, other processes', or"
                    + " the attacker's own compiler and collector), so " : "")
                    + ATTACKER_SET + ": " + String.join("; ", reasons) + lagClause()
                    + cpuClause() + ".";
        double lag = Double.isNaN(eventLoopLagP99Millis) ? 0 : eventLoopLagP99Millis;
        if (!judged() && scheduled - unsent == 0) return "Instrument not judged: " + notJudged + cpuClause() + ".";
        if (!judged())
            return "Instrument not judged: " + notJudged + "; the attacker added up to " + ms(delays.ownMillis().p99() + lag)
                    + " at p99, beside an allowance of " + ms(budgetMillis) + cpuClause() + ".";
        return "Instrument OK: the attacker added up to " + ms(delays.ownMillis().p99() + lag) + " at p99, within its allowance of "
                + ms(budgetMillis) + cpuClause() + ".";
    }

    /** The loops' lag was the larger part of what the attacker added, and mostly spent waiting for a CPU. */
    private boolean waitedForCores() {
        // NaN (unknown) compares false
        return lagWaitingShare >= 0.5 && eventLoopLagP99Millis > 0 && eventLoopLagP99Millis >= delays.ownMillis().p99();
    }

    private String lagClause() {
        if (Double.isNaN(lagWaitingShare) || Double.isNaN(lagRunningShare)) return "";
        return String.format(Locale.ROOT, "; of the event loops' lateness, %.0f%% waiting for a core, %.0f%% running"
                + " the attacker's own work, %.0f%% stopped (a pause of its JVM, or a block)", lagWaitingShare * 100,
                lagRunningShare * 100, Math.max(0, 1 - lagWaitingShare - lagRunningShare) * 100);
    }

    private boolean saturatedByOthers() {
        return machineBusyShare >= 0.9 && attackerCpuCores < 0.5;   // NaN (unknown) compares false
    }

    private String cpuClause() {
        if (Double.isNaN(attackerCpuCores)) return "";
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, " (attacker CPU %.2f of %d cores", attackerCpuCores, cores));
        if (!Double.isNaN(eventLoopBusyShare)) sb.append(String.format(Locale.ROOT, ", busiest event loop %.0f%%", eventLoopBusyShare * 100));
        if (!Double.isNaN(machineBusyShare)) sb.append(String.format(Locale.ROOT, ", machine %.0f%% busy", machineBusyShare * 100));
        return sb.append(')').toString();
    }

    /** A duration to three significant digits ({@code 68.6ms}, {@code 1.77s}, {@code 754µs}): nanoseconds here are noise. */
    private static String ms(double millis) {
        double nanos = millis * 1e6;
        if (nanos >= 1000) {
            double unit = Math.pow(10, Math.floor(Math.log10(nanos)) - 2);
            nanos = Math.round(nanos / unit) * unit;
        }
        return GoDurations.format(Math.round(nanos));
    }
}
