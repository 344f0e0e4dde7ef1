package dev.blocklab.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The attack report's lines on the instrument itself, in vegeta's layout (name, bracketed legend, values): the
 * requests retried on a new connection (when any were), the late sends, the attacker's own delay, the connection wait, latency from
 * the actual send, the attacker's own load and what its event loops' lag was made of (when measured). One list for
 * the live text report and the saved one, so {@code blocklab report} of a saved attack prints what the attack did.
 */
public final class InstrumentRows {
    private InstrumentRows() {}

    /** The rows, each {@code [name, legend, values]}. */
    public static List<List<String>> of(AttackResult r) {
        List<List<String>> rows = new ArrayList<>();
        if (r.retried() > 0)   // each still one request: sent again when a kept-alive connection closed unanswered
            rows.add(List.of("Retried", "[requests, on a new connection]", Long.toString(r.retried())));
        rows.add(List.of("Late sends", "[count, threshold, max, unsent]", r.lateSends() + ", "
                + GoDurations.format(r.lateThresholdNanos()) + ", " + GoDurations.format(r.maxLateNanos()) + ", " + r.unsent()));
        InstrumentHealth h = r.health();
        InstrumentHealth.OwnDelays d = h.delays();
        rows.add(List.of("Own delay", "[late 99, hand-off 99, own 99, max]", duration(d.sendLatenessMillis().p99()) + ", "
                + duration(d.handOffMillis().p99()) + ", " + duration(d.ownMillis().p99()) + ", " + duration(d.ownMillis().max())));
        rows.add(List.of("Conn wait", "[50, 99, max]", medianP99Max(d.connectionWaitMillis())));
        if (d.latencyFromSendMillis().count() > 0)
            rows.add(List.of("From send", "[50, 99, max]", medianP99Max(d.latencyFromSendMillis())));
        rows.add(List.of("Own load", "[cpu cores, loop busy, loop lag 99, max, machine busy]",
                String.format(Locale.ROOT, "%s of %d, %s, %s, %s, %s", number(h.attackerCpuCores()), h.cores(),
                        percent(h.eventLoopBusyShare()), orDash(h.eventLoopLagP99Millis()), orDash(h.eventLoopLagMaxMillis()),
                        percent(h.machineBusyShare()))));
        if (!Double.isNaN(h.lagWaitingShare()))
            rows.add(List.of("Lag causes", "[waiting for a core, running, stopped]", String.format(Locale.ROOT, "%s, %s, %s",
                    percent(h.lagWaitingShare()), percent(h.lagRunningShare()),
                    percent(Math.max(0, 1 - h.lagWaitingShare() - h.lagRunningShare())))));
        return rows;
    }

    private static String duration(double millis) { return GoDurations.format(Math.round(millis * 1e6)); }

    private static String orDash(double millis) { return Double.isNaN(millis) ? "-" : duration(millis); }

    private static String percent(double share) { return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.0f%%", share * 100); }

    private static String number(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v); }

    private static String medianP99Max(LatencyMillis l) {
        return duration(l.p50()) + ", " + duration(l.p99()) + ", " + duration(l.max());
    }
}
