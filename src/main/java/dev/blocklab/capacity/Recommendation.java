package dev.blocklab.capacity;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The entries ranked: by the highest rate each sustained at the objectives (higher first), then by CPU per
 * request at a common rate, the lowest sustainable rate among them (cheaper first). Pure: reads results only.
 *
 * @param commonPerSecond the rate at which costs are compared (0 when no entry sustained any rate)
 * @param ranked          the entries, best first
 */
public record Recommendation(double commonPerSecond, List<Ranked> ranked) {

    /**
     * One ranked entry.
     *
     * @param rank                  1 for the best
     * @param result                its search, prediction and reason for stopping
     * @param cpuMicrosAtCommonRate CPU per request at the highest measured rate not above the common rate (NaN if none)
     * @param cpuRatePerSecond      the rate that figure was measured at: the common rate or one below it (NaN if none)
     */
    public record Ranked(int rank, Capacity.EntryResult result, double cpuMicrosAtCommonRate, double cpuRatePerSecond) {}

    public static Recommendation of(List<Capacity.EntryResult> results) {
        double common = results.stream().mapToDouble(r -> r.search().sustainablePerSecond()).filter(r -> r > 0).min().orElse(0);
        List<Capacity.EntryResult> sorted = results.stream()
                .sorted(Comparator.comparingDouble((Capacity.EntryResult r) -> -r.search().sustainablePerSecond())
                        .thenComparingDouble(r -> costAt(r, common)))
                .toList();
        List<Ranked> ranked = new java.util.ArrayList<>();
        for (int i = 0; i < sorted.size(); i++)
            ranked.add(new Ranked(i + 1, sorted.get(i), costAt(sorted.get(i), common),
                    pointAt(sorted.get(i), common).map(Point::ratePerSecond).orElse(Double.NaN)));
        return new Recommendation(common, ranked);
    }

    /** CPU per request (median run) at the highest sustained rate at or below {@code rate}. */
    static double costAt(Capacity.EntryResult r, double rate) {
        return pointAt(r, rate).map(pt -> pt.median().cpuMicrosPerRequest()).orElse(Double.NaN);
    }

    /** The point the cost at {@code rate} is read from: the highest sustained rate measured at or below it. */
    private static Optional<Point> pointAt(Capacity.EntryResult r, double rate) {
        return r.search().points().stream()
                .filter(pt -> pt.ratePerSecond() <= rate && pt.ratePerSecond() <= r.search().sustainablePerSecond())
                .max(Comparator.comparingDouble(Point::ratePerSecond));
    }

    /** One sentence per entry: its rank, sustained rate beside the prediction, and why it stops there. */
    public List<String> sentences() {
        return ranked.stream().map(r -> {
            CapacitySearch.Result s = r.result().search();
            return String.format(Locale.ROOT, "%d. %s sustains %s%s/s (predicted ceiling: %s)%s: %s.", r.rank(), r.result().entry(),
                    s.isLowerBound() ? "at least " : "", Capacity.fmt(s.sustainablePerSecond()),
                    Capacity.ceiling(r.result().predicted().ceilingPerSecond()),
                    Double.isNaN(r.cpuMicrosAtCommonRate()) ? "" : String.format(Locale.ROOT,
                            "; compared at the common %s/s (the lowest rate every entry sustained): %.0f us of CPU per request, measured at %s/s",
                            Capacity.fmt(commonPerSecond), r.cpuMicrosAtCommonRate(),
                            Capacity.fmt(r.cpuRatePerSecond())),
                    r.result().why());
        }).toList();
    }
}
