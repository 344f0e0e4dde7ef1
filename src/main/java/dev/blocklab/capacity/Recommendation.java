package dev.blocklab.capacity;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The entries ranked: by the highest rate each sustained at the objectives (higher first), then, among entries
 * that sustained the same rate, by CPU per request at that rate (cheaper first). The table compares every entry's
 * CPU at a common rate: the lowest of the rates they sustained, so the highest that every entry that sustained any
 * rate held. Pure: reads results only.
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
                        // a tie: CPU at the rate both held, not at a lower one a third entry set
                        .thenComparingDouble(r -> costAt(r, r.search().sustainablePerSecond())))
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

    /** Two CPU figures closer than this share are within the noise of one short run on a shared machine. */
    static final double CPU_NOISE = 0.15;

    /**
     * When the first two entries sustained the same rate and their CPU per request there differs by less than
     * {@link #CPU_NOISE}: the sentence that says the choice between them is a tie; empty otherwise.
     */
    public Optional<String> tie() {
        if (ranked.size() < 2) return Optional.empty();
        Capacity.EntryResult a = ranked.get(0).result(), b = ranked.get(1).result();
        double rate = a.search().sustainablePerSecond();
        if (rate == 0 || b.search().sustainablePerSecond() != rate) return Optional.empty();
        // neither broke below --max-rate (not a load generator's limit, which a higher --max-rate would not lift):
        // CPU at a rate far below both limits ranks nothing
        if (a.search().brokenPerSecond() == 0 && b.search().brokenPerSecond() == 0 && !a.search().instrumentLimited() && !b.search().instrumentLimited())
            return Optional.of(String.format(Locale.ROOT, "%s and %s tie: both held every rate up to %s/s, the highest tried, so the search "
                            + "found neither's limit (their formulas' ceilings: %s and %s); the order between them is not measured, raise --max-rate to tell them apart.",
                    a.entry(), b.entry(), dev.blocklab.load.Rates.number(rate), Capacity.ceiling(a.predicted().ceilingPerSecond()), Capacity.ceiling(b.predicted().ceilingPerSecond())));
        double ca = costAt(a, rate), cb = costAt(b, rate);
        if (Double.isNaN(ca) || Double.isNaN(cb) || Math.abs(cb - ca) > CPU_NOISE * Math.min(ca, cb)) return Optional.empty();
        return Optional.of(String.format(Locale.ROOT, "%s and %s tie: both sustained %s%s/s, and their CPU per request there (%,.0f and %,.0f us) "
                        + "differs by %.0f %%, within the noise of one run; either will do, or raise --max-rate or --repeats to tell them apart.",
                a.entry(), b.entry(), a.search().isLowerBound() ? "at least " : "", dev.blocklab.load.Rates.number(rate), ca, cb, 100 * Math.abs(cb - ca) / Math.min(ca, cb)));
    }

    /** One sentence per entry: its rank, sustained rate beside the prediction, and why it stops there. */
    public List<String> sentences() {
        return ranked.stream().map(r -> {
            CapacitySearch.Result s = r.result().search();
            return String.format(Locale.ROOT, "%d. %s sustains %s%s/s (predicted ceiling: %s%s)%s: %s.", r.rank(), r.result().entry(),
                    s.isLowerBound() ? "at least " : "", dev.blocklab.load.Rates.number(s.sustainablePerSecond()),
                    Capacity.ceiling(r.result().predicted().ceilingPerSecond()),
                    Advice.cpuCeiling(r.result(), r.cpuMicrosAtCommonRate(), r.cpuRatePerSecond()).map(c -> "; " + c).orElse(""),
                    Double.isNaN(r.cpuMicrosAtCommonRate()) ? "" : String.format(Locale.ROOT,
                            "; compared at the common %s/s (the highest rate every entry that sustained any held): %,.0f us of CPU per request, measured at %s/s%s",
                            dev.blocklab.load.Rates.number(commonPerSecond), r.cpuMicrosAtCommonRate(), dev.blocklab.load.Rates.number(r.cpuRatePerSecond()),
                            r.cpuRatePerSecond() < commonPerSecond ? " (this entry's highest rate measured up to it)" : ""),
                    r.result().why());
        }).toList();
    }
}
