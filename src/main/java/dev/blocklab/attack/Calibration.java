package dev.blocklab.attack;

import dev.blocklab.load.Pacer;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.GoDurations;
import dev.blocklab.driver.Progress;
import dev.blocklab.workload.Arrival;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * {@code blocklab attack --calibrate}: the attacker's highest accurate rate on this machine, measured against an
 * in-process null target ({@link TrivialServer}: {@code 200 ok} at once, one event loop), as wrk2's users
 * measure their client's ceiling before trusting it. Rates are tried in ascending order, each one attack with
 * its warm-up, after one discarded attack at the first rate that warms the JVM; a rate is <em>accurate</em> when the attack was not {@linkplain InstrumentHealth instrument-limited},
 * every response succeeded and the rate sent was within 1 % of the asked one. A rate found not accurate is tried
 * once more (on a shared machine one descheduling of a millisecond in a 3 s step can put the attacker's own
 * delay over its 1 ms allowance at p99: that is a hiccup, not the attacker's ceiling), and the ladder stops at the
 * first rate that is not accurate twice.
 *
 * @param steps                 each rate tried, in order
 * @param highestAccuratePerSecond the highest accurate rate (0 when even the first was not)
 */
public record Calibration(List<Step> steps, double highestAccuratePerSecond) {

    /** The rates tried by default, per second. */
    public static final List<Double> DEFAULT_RATES = List.of(1_000.0, 2_000.0, 5_000.0, 10_000.0, 20_000.0, 30_000.0,
            40_000.0, 50_000.0, 75_000.0, 100_000.0);
    /** Each rate's measured duration and warm-up by default. */
    public static final long DEFAULT_STEP_NANOS = 3_000_000_000L, DEFAULT_STEP_WARMUP_NANOS = 1_000_000_000L;

    public Calibration {
        steps = List.copyOf(steps);
    }

    /** One rate tried: what was asked, what the attack measured, and whether it was accurate. */
    public record Step(double askedPerSecond, AttackResult result, boolean accurate) {}

    /** Whether {@code r}, asked at {@code askedPerSecond}, was an accurate measurement. */
    static boolean accurate(double askedPerSecond, AttackResult r) {
        return !r.health().instrumentLimited() && r.successRatio() >= 1.0 && r.ratePerSecond() >= 0.99 * askedPerSecond;
    }

    /** How many times a rate is tried before it counts as not accurate. */
    static final int TRIES = 2;

    /**
     * Tries {@code rates} in order with {@code measure}, each up to {@link #TRIES} times until one try is accurate,
     * stopping at the first rate that no try measured accurately. Every try is a step.
     */
    static Calibration climb(List<Double> rates, DoubleFunction<AttackResult> measure, Progress progress) {
        List<Step> steps = new ArrayList<>();
        double best = 0;
        for (double rate : rates) {
            boolean ok = false;
            for (int attempt = 1; attempt <= TRIES && !ok; attempt++) {
                progress.update(String.format(Locale.ROOT, "calibrate: %.0f/s%s", rate, attempt > 1 ? " (again)" : ""));
                AttackResult r = measure.apply(rate);
                ok = accurate(rate, r);
                steps.add(new Step(rate, r, ok));
            }
            if (!ok) break;
            best = rate;
        }
        return new Calibration(steps, best);
    }

    /** Runs the calibration against an in-process {@link TrivialServer} with the given client and connection cap. */
    public static Calibration run(AttackSettings.Client client, int maxConnections, long stepNanos, long warmupNanos,
                                  Progress progress) {
        try (TrivialServer server = TrivialServer.start(0, 1)) {
            Target target = Target.get("http://127.0.0.1:" + server.port() + "/");
            // A fresh JVM compiles for its first seconds: one discarded attack warms the client and the null target.
            progress.update("calibrate: warming the JVM (discarded)");
            Attack.run(AttackSettings.of(List.of(target), new Arrival.Open(new Pacer.Constant(DEFAULT_RATES.getFirst()),
                    2 * stepNanos)).withClient(client).withMaxConnections(maxConnections).withWarmupNanos(0), Progress.NONE);
            return climb(DEFAULT_RATES, rate -> Attack.run(AttackSettings.of(List.of(target),
                            new Arrival.Open(new Pacer.Constant(rate), stepNanos))
                    .withClient(client).withMaxConnections(maxConnections).withWarmupNanos(warmupNanos), Progress.NONE),
                    progress);
        }
    }

    /** A table, one line per rate, then the verdict. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%10s %10s %8s %10s %10s %10s %10s %9s %9s  %s%n", "asked/s", "sent/s",
                "success", "p50", "p99", "own p99", "lag p99", "cpu", "loop", "accurate"));
        for (Step s : steps) {
            AttackResult r = s.result();
            InstrumentHealth h = r.health();
            sb.append(String.format(Locale.ROOT, "%10.0f %10.0f %7.2f%% %10s %10s %10s %10s %9s %9s  %s%n", s.askedPerSecond(),
                    r.ratePerSecond(), r.successRatio() * 100, ms(r.latencyMillis().p50()),
                    ms(r.latencyMillis().p99()), ms(h.delays().ownMillis().p99()),
                    Double.isNaN(h.eventLoopLagP99Millis()) ? "-" : ms(h.eventLoopLagP99Millis()),
                    Double.isNaN(h.attackerCpuCores()) ? "-" : String.format(Locale.ROOT, "%.2f/%d", h.attackerCpuCores(), h.cores()),
                    Double.isNaN(h.eventLoopBusyShare()) ? "-" : String.format(Locale.ROOT, "%.0f%%", h.eventLoopBusyShare() * 100),
                    s.accurate() ? "yes" : "no: " + (h.instrumentLimited() ? String.join("; ", h.reasons())
                            : r.successRatio() < 1 ? "not every response succeeded" : "sent below the asked rate")));
        }
        sb.append(highestAccuratePerSecond > 0
                ? String.format(Locale.ROOT, "Highest accurate rate on this machine: %.0f requests/s (against an in-process null target; the next rate tried was %s).%n",
                highestAccuratePerSecond, steps.getLast().accurate() ? "none: the ladder ended" : "not accurate, twice")
                : "No rate tried was accurate on this machine.\n");
        sb.append("Accurate: not instrument-limited, 100% success, sent within 1% of the asked rate; a rate not accurate is tried once more. Latency from the intended send time.\n");
        return sb.toString();
    }

    private static String ms(double millis) { return GoDurations.format(Math.round(millis * 1e6)); }
}
