package dev.blocklab.capacity;

import dev.blocklab.experiment.RateSearch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The highest open rate meeting every objective: {@link RateSearch} grows the rate geometrically until an
 * objective breaks, then bisects between the last rate that held and the first that broke. Each rate is
 * measured {@code repeats} times and judged on the run of median p99 (see {@link Point#median()}), so one noisy
 * run neither ends nor extends the search. A rate at which the load generator itself was limited counts as
 * broken but is reported as the instrument's limit: the answer is then "at least" the highest rate that held.
 * A rate whose completions within the step fall well short of the offer (see {@link Measurement#backlog()})
 * breaks too, whatever its p99: a queue growing across a short step may not yet show in the latencies.
 *
 * <p>Pure logic over {@link Meter}: tested with a fake meter, without running anything.
 *
 * @param rates   the rate schedule (start, growth factor, ceiling, bisections); its attempts are used as given
 * @param repeats runs per rate (at least 1)
 * @param slos    the objectives, all of which must hold
 */
public record CapacitySearch(RateSearch rates, int repeats, List<Slo> slos) {
    public CapacitySearch {
        if (repeats < 1) throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
        slos = List.copyOf(slos);
        if (slos.isEmpty()) throw new IllegalArgumentException("at least one objective");
    }

    /** Runs the entry once at an offered rate (requests per second) for long enough to reach steady state. */
    @FunctionalInterface
    public interface Meter {
        Measurement measure(double ratePerSecond);

        /** As {@link #measure(double)}, with the run's phase for progress lines, e.g. {@code run 2/3}. */
        default Measurement measure(double ratePerSecond, String phase) { return measure(ratePerSecond); }
    }

    /**
     * The search's answer.
     *
     * @param sustainablePerSecond the highest rate that met every objective, 0 when none did
     * @param brokenPerSecond      the lowest rate that broke one, 0 when none broke up to the ceiling
     * @param instrumentLimited    true when that lowest broken rate broke because of the load generator: the
     *                             entry sustains at least {@code sustainablePerSecond}
     * @param stopReason           why the search stopped there, in words
     * @param points               every rate measured, by rate
     */
    public record Result(double sustainablePerSecond, double brokenPerSecond, boolean instrumentLimited,
                         String stopReason, List<Point> points) {
        public Result {
            points = List.copyOf(points);
        }

        /**
         * True when the sustainable rate is a lower bound: no rate tried broke the entry, or the load generator was
         * the limit. It reads "at least" that rate.
         */
        public boolean isLowerBound() { return instrumentLimited || brokenPerSecond == 0; }

        /** The point at the sustainable rate, if any rate held. */
        public Optional<Point> atSustainable() {
            return points.stream().filter(p -> p.ratePerSecond() == sustainablePerSecond).findFirst();
        }

        /** The point at the lowest broken rate, if any broke. */
        public Optional<Point> atBroken() {
            return points.stream().filter(p -> p.ratePerSecond() == brokenPerSecond).findFirst();
        }
    }

    public Result run(Meter meter) {
        List<Point> points = new ArrayList<>();
        RateSearch.Outcome<Point> outcome = rates.run(rate -> {
            List<Measurement> runs = new ArrayList<>();
            for (int i = 0; i < repeats; i++) runs.add(meter.measure(rate, "run " + (i + 1) + "/" + repeats));
            Point point = new Point(rate, runs);
            points.add(point);
            return judge(point);
        });
        RateSearch.Step<Point> broken = outcome.failedStep();
        boolean instrument = broken != null && broken.verdict().measurement().instrumentLimited();
        String reason;
        if (broken == null) reason = "met every objective up to the search's ceiling of " + dev.blocklab.load.Rates.number(rates.maxPerSecond()) + "/s";
        else if (instrument) {
            String note = broken.verdict().reason().replaceFirst("^instrument-limited: ", "");
            boolean machine = note.startsWith(dev.blocklab.result.InstrumentHealth.MACHINE_SATURATED);
            reason = (machine ? dev.blocklab.result.InstrumentHealth.MACHINE_SATURATED + " at " : "the load generator was the limit at ")
                    + dev.blocklab.load.Rates.number(broken.ratePerSecond()) + "/s, so this is a lower bound ("
                    + note.replace(dev.blocklab.result.InstrumentHealth.MACHINE_SATURATED + ", so ", "")
                            .replace(dev.blocklab.result.InstrumentHealth.ATTACKER_SET + ": ", "") + ")";
        }
        else reason = "at " + dev.blocklab.load.Rates.number(broken.ratePerSecond()) + "/s: " + broken.verdict().reason();
        List<Point> byRate = points.stream().sorted(Comparator.comparingDouble(Point::ratePerSecond)).toList();
        return new Result(outcome.highestSustainedPerSecond(), outcome.lowestFailedPerSecond(), instrument, reason, byRate);
    }

    /** Whether a point meets every objective, judged on its median run; the instrument's limit first. */
    RateSearch.Verdict<Point> judge(Point point) {
        if (point.instrumentLimited()) {
            String note = point.repeats().stream().filter(Measurement::instrumentLimited).map(Measurement::instrumentNote)
                    .findFirst().orElse("")
                    .replaceFirst("^INSTRUMENT-LIMITED: ", "").replaceFirst("\\.$", "");   // the attack's verdict line, as a clause
            return new RateSearch.Verdict<>(false, "instrument-limited" + (note.isEmpty() ? "" : ": " + note), point);
        }
        Measurement median = point.median();
        List<String> breaches = new ArrayList<>(median.backlog().stream().toList());
        slos.stream().map(s -> s.breach(median)).flatMap(Optional::stream).forEach(breaches::add);
        return new RateSearch.Verdict<>(breaches.isEmpty(), String.join(", ", breaches), point);
    }

}
