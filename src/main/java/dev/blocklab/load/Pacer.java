package dev.blocklab.load;

/**
 * An open-model schedule: when the i-th request is due. Pure functions of their arguments; no clock inside.
 * Request {@code k} (0-based) is due at the first instant at which the area under the rate curve reaches
 * {@code k}, so request 0 is due at 0 and {@code dueBy(t)} is {@code floor(area(t)) + 1}.
 */
public sealed interface Pacer extends DueTimes {

    /** The target rate at {@code elapsedNanos}, per second. */
    double ratePerSecondAt(long elapsedNanos);

    /** A constant rate. */
    record Constant(double ratePerSecond) implements Pacer {
        public Constant {
            if (!(ratePerSecond > 0)) throw new IllegalArgumentException("rate must be > 0 per second, got " + ratePerSecond);
        }
        @Override public long dueNanos(long index) { return (long) Math.ceil(index * 1e9 / ratePerSecond); }
        @Override public long dueBy(long elapsedNanos) {
            return elapsedNanos < 0 ? 0 : (long) Math.floor(elapsedNanos * ratePerSecond / 1e9) + 1;
        }
        @Override public double ratePerSecondAt(long elapsedNanos) { return ratePerSecond; }
    }

    /**
     * A rate that rises (or falls) linearly from {@code startPerSecond} to {@code endPerSecond} over
     * {@code durationNanos}, then stays at {@code endPerSecond}.
     */
    record LinearRamp(double startPerSecond, double endPerSecond, long durationNanos) implements Pacer {
        public LinearRamp {
            if (!(startPerSecond > 0) || !(endPerSecond > 0))
                throw new IllegalArgumentException("ramp rates must be > 0 per second");
            if (durationNanos <= 0) throw new IllegalArgumentException("a ramp needs a positive duration");
        }
        private double slopePerSecond2() { return (endPerSecond - startPerSecond) / (durationNanos / 1e9); }

        /** Requests due by t seconds: the area under the rate curve. */
        private double area(double seconds) {
            double d = durationNanos / 1e9;
            if (seconds <= d) return startPerSecond * seconds + slopePerSecond2() * seconds * seconds / 2;
            return area(d) + endPerSecond * (seconds - d);
        }

        @Override public long dueBy(long elapsedNanos) {
            return elapsedNanos < 0 ? 0 : (long) Math.floor(area(elapsedNanos / 1e9) + 1e-9) + 1;
        }

        @Override public long dueNanos(long index) {
            double d = durationNanos / 1e9;
            double atEnd = area(d);
            double seconds;
            if (index <= atEnd) {
                double a = slopePerSecond2() / 2;
                if (Math.abs(a) < 1e-12) seconds = index / startPerSecond;
                else seconds = (-startPerSecond + Math.sqrt(startPerSecond * startPerSecond + 4 * a * index)) / (2 * a);
            } else {
                seconds = d + (index - atEnd) / endPerSecond;
            }
            return (long) Math.ceil(seconds * 1e9 - 1e-3);
        }

        @Override public double ratePerSecondAt(long elapsedNanos) {
            double s = elapsedNanos / 1e9;
            return s >= durationNanos / 1e9 ? endPerSecond : startPerSecond + slopePerSecond2() * s;
        }
    }

    /**
     * Rates held for {@code stepNanos} each, in order; after the last step the last rate continues. For
     * example {@code Steps([100, 500, 1000], 5 s)} sends at 100/s for 5 s, 500/s for 5 s, then 1000/s.
     */
    record Steps(java.util.List<Double> ratesPerSecond, long stepNanos) implements Pacer {
        public Steps {
            ratesPerSecond = java.util.List.copyOf(ratesPerSecond);
            if (ratesPerSecond.isEmpty()) throw new IllegalArgumentException("steps need at least one rate");
            for (double r : ratesPerSecond)
                if (!(r > 0) || Double.isInfinite(r)) throw new IllegalArgumentException("step rates must be > 0 per second, got " + r);
            if (stepNanos <= 0) throw new IllegalArgumentException("a step needs a positive duration");
        }

        /** Requests due by the end of step {@code i} (the area under the curve up to {@code (i+1) * step}). */
        private double areaBeforeStep(int step) {
            double sum = 0;
            for (int i = 0; i < step; i++) sum += ratesPerSecond.get(i) * stepNanos / 1e9;
            return sum;
        }

        private int stepAt(long elapsedNanos) {
            return (int) Math.min(ratesPerSecond.size() - 1, elapsedNanos / stepNanos);
        }

        @Override public long dueBy(long elapsedNanos) {
            if (elapsedNanos < 0) return 0;
            int step = stepAt(elapsedNanos);
            double area = areaBeforeStep(step) + ratesPerSecond.get(step) * (elapsedNanos - (double) step * stepNanos) / 1e9;
            return (long) Math.floor(area + 1e-12 * Math.max(1, area)) + 1;
        }

        @Override public long dueNanos(long index) {
            double before = 0;
            int last = ratesPerSecond.size() - 1;
            for (int step = 0; step <= last; step++) {
                double rate = ratesPerSecond.get(step);
                double inStep = rate * stepNanos / 1e9;
                if (step == last || index < before + inStep) {
                    double seconds = (double) step * stepNanos / 1e9 + (index - before) / rate;
                    return (long) Math.ceil(seconds * 1e9 - 1e-3);
                }
                before += inStep;
            }
            throw new AssertionError("unreachable");
        }

        @Override public double ratePerSecondAt(long elapsedNanos) {
            return ratesPerSecond.get(stepAt(Math.max(0, elapsedNanos)));
        }
    }
}
