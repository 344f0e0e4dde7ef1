package dev.blocklab.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The answer for a user's workload in plain words, with the numbers and the command that reproduces them. */
public final class Advice {
    private Advice() {}

    /**
     * A success objective that no entry can meet on this workload, because its calls fail by design more often
     * than the objective allows.
     *
     * @param objective      the objective out of reach, e.g. {@code success>=99.9%}
     * @param byDesign       the share of requests whose calls do not fail by design, in [0, 1]
     * @param suggested      an objective a point under that share, so a short step's sampling noise does not break it
     */
    public record Unreachable(Slo objective, double byDesign, Slo suggested) {
        /** The one sentence said up front, naming {@code workload}. */
        public String sentence(String workload) {
            return String.format(Locale.ROOT, "No entry can meet %s on %s: its calls fail by design, so at most %.2f %% of requests "
                    + "succeed whatever the model; use --slo '%s' (or lower) to compare the entries.", objective.text(), workload,
                    byDesign * 100, suggested.text());
        }
    }

    /** The success objective no entry can meet on {@code graph}, if any (see {@link Unreachable}). */
    public static java.util.Optional<Unreachable> unreachable(dev.blocklab.workload.Graph graph, List<Slo> slos) {
        double byDesign = Capacity.successByDesign(graph);
        return slos.stream().filter(s -> s.metric().equals("success") && s.limit() > byDesign + 1e-12).findFirst()
                .map(s -> new Unreachable(s, byDesign, Slo.parse(String.format(Locale.ROOT, "success>=%d%%",
                        (long) Math.max(1, Math.floor(byDesign * 100) - 1)))));
    }

    /**
     * {@link #cpuCeiling(double, double)} for an entry whose CPU per request was measured at {@code ratePerSecond}:
     * in process only, since over HTTP the formula is a server's pool and the CPU the whole JVM's, the attacker's
     * included; and only from a rate that kept at least {@link #CPU_BOUND_MIN_CORES} of a core busy, since at a few
     * requests a second the process's own background work (compilation, collection, timers) divided by so few
     * requests is most of the figure (22,082 us a request at 3/s read as a bound of 90/s).
     */
    static Optional<String> cpuCeiling(Capacity.EntryResult entry, double cpuMicrosPerRequest, double ratePerSecond) {
        if (entry.entry().startsWith(Entries.HTTP) || !(cpuMicrosPerRequest * ratePerSecond / 1e6 >= CPU_BOUND_MIN_CORES)) return Optional.empty();
        return cpuCeiling(entry.predicted().ceilingPerSecond(), cpuMicrosPerRequest);
    }

    /** The least CPU (in cores) a measurement must have kept busy for its CPU per request to bound a rate. */
    static final double CPU_BOUND_MIN_CORES = 0.25;

    /**
     * {@code the formula counts the workload's CPU steps, not the process's; at the 512 us of CPU a request measured
     * here, 2 cores give at most 3,906/s} when that bound is below the formula's ceiling: a formula counts the
     * workload's own CPU steps, not the CPU the whole process spends on a request (scheduling, the backend,
     * collection), which the search measures.
     */
    static Optional<String> cpuCeiling(double formulaPerSecond, double cpuMicrosPerRequest) {
        if (!(cpuMicrosPerRequest > 0)) return Optional.empty();
        int cores = Runtime.getRuntime().availableProcessors();
        double cpuBound = cores * 1e6 / cpuMicrosPerRequest;
        if (cpuBound >= formulaPerSecond) return Optional.empty();
        return Optional.of(String.format(Locale.ROOT, "the formula counts the workload's CPU steps, not the process's; at the %,.0f us "
                + "of CPU a request measured here, %d cores give at most %s/s", cpuMicrosPerRequest, cores, dev.blocklab.load.Rates.number(cpuBound)));
    }

    public static List<String> lines(String workload, List<Slo> slos, Recommendation rec, String command) {
        return lines(workload, slos, rec, null, command);
    }

    /** As above, with how the figures were measured ({@link CapacityReport#searchNote}) before the command. */
    public static List<String> lines(String workload, List<Slo> slos, Recommendation rec, String method, String command) {
        List<String> lines = new ArrayList<>();
        String slo = String.join(" and ", slos.stream().map(Slo::text).toList());
        if (rec.ranked().isEmpty() || rec.ranked().getFirst().result().search().sustainablePerSecond() == 0) {
            lines.add("For " + workload + ", no entry met " + slo + " at any rate tried.");
        } else {
            Recommendation.Ranked best = rec.ranked().getFirst();
            CapacitySearch.Result s = best.result().search();
            Measurement m = s.atSustainable().map(Point::median).orElseThrow();
            lines.add(String.format(Locale.ROOT, "For %s, use %s: it kept %s up to %s%s requests a second (p99 %,.0f ms there%s, %,.0f us of CPU "
                            + "and %,.0f KiB allocated per request); its formula's predicted ceiling: %s%s.",
                    workload, best.result().entry(), slo, s.isLowerBound() ? "at least " : "",
                    dev.blocklab.load.Rates.number(s.sustainablePerSecond()), m.p99Millis(),
                    Slo.metOnlyByTheInterval(slos, m).stream().map(t -> "; " + t).collect(java.util.stream.Collectors.joining()),
                    m.cpuMicrosPerRequest(), m.allocatedBytesPerRequest() / 1024,
                    Capacity.ceiling(best.result().predicted().ceilingPerSecond()),
                    cpuCeiling(best.result(), m.cpuMicrosPerRequest(), m.offeredPerSecond()).map(c -> " (" + c + ")").orElse("")));
            lines.add("It stops there because " + best.result().why() + ".");
            rec.tie().ifPresent(lines::add);
        }
        for (Recommendation.Ranked r : rec.ranked().subList(Math.min(1, rec.ranked().size()), rec.ranked().size())) {
            CapacitySearch.Result other = r.result().search();
            lines.add(String.format(Locale.ROOT, "%s sustains %s%s/s: %s.", r.result().entry(), other.isLowerBound() ? "at least " : "",
                    dev.blocklab.load.Rates.number(other.sustainablePerSecond()), r.result().why()));
        }
        if (method != null) lines.add(method);
        lines.add("Reproduce: " + command);
        return lines;
    }
}
