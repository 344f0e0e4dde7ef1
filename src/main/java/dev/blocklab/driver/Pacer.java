package dev.blocklab.driver;

/**
 * An open-model schedule: when the i-th request is due. Pure functions of their arguments; no clock inside.
 */
public sealed interface Pacer {

    /** Nanoseconds after the start at which request {@code index} (0-based) is due. */
    long dueNanos(long index);

    /** How many requests are due at or before {@code elapsedNanos}. */
    long dueBy(long elapsedNanos);

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
}
