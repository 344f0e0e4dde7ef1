package dev.blocklab.capacity;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The answer for a user's workload in plain words, with the numbers and the command that reproduces them. */
public final class Advice {
    private Advice() {}

    public static List<String> lines(String workload, List<Slo> slos, Recommendation rec, String command) {
        List<String> lines = new ArrayList<>();
        String slo = String.join(" and ", slos.stream().map(Slo::text).toList());
        if (rec.ranked().isEmpty() || rec.ranked().getFirst().result().search().sustainablePerSecond() == 0) {
            lines.add("For " + workload + ", no entry met " + slo + " at any rate tried.");
        } else {
            Recommendation.Ranked best = rec.ranked().getFirst();
            CapacitySearch.Result s = best.result().search();
            Measurement m = s.atSustainable().map(Point::median).orElseThrow();
            lines.add(String.format(Locale.ROOT, "For %s, use %s: it kept %s up to %s%s requests a second (p99 %.0f ms there, %.0f us of CPU "
                            + "and %.0f KiB allocated per request); its formula's predicted ceiling: %s.",
                    workload, best.result().entry(), slo, s.instrumentLimited() || s.brokenPerSecond() == 0 ? "at least " : "",
                    Capacity.fmt(s.sustainablePerSecond()), m.p99Millis(), m.cpuMicrosPerRequest(), m.allocatedBytesPerRequest() / 1024,
                    Capacity.ceiling(best.result().predicted().ceilingPerSecond())));
            lines.add("It stops there because " + best.result().why() + ".");
        }
        for (Recommendation.Ranked r : rec.ranked().subList(Math.min(1, rec.ranked().size()), rec.ranked().size())) {
            lines.add(String.format(Locale.ROOT, "%s sustains %s/s: %s.", r.result().entry(),
                    Capacity.fmt(r.result().search().sustainablePerSecond()), r.result().why()));
        }
        lines.add("Reproduce: " + command);
        return lines;
    }
}
