package dev.blocklab.workload;

import dev.blocklab.load.Pacer;

/** How requests arrive at the model. */
public sealed interface Arrival {

    /** A short label such as {@code batch 100}, {@code closed 50 users for 10s}, {@code open 50/s for 10s}. */
    String label();

    /** {@code requests} requests submitted at once; the run ends when all have completed. */
    record Batch(int requests) implements Arrival {
        public Batch {
            if (requests <= 0) throw new IllegalArgumentException("a batch needs at least 1 request, got " + requests);
        }
        @Override public String label() { return "batch " + requests; }
    }

    /** {@code users} users each sending the next request when the previous one completes, for a duration. */
    record Closed(int users, long durationNanos) implements Arrival {
        public Closed {
            if (users <= 0) throw new IllegalArgumentException("a closed loop needs at least 1 user, got " + users);
            if (durationNanos <= 0) throw new IllegalArgumentException("a closed loop needs a positive duration");
        }
        @Override public String label() { return "closed " + users + " users for " + Durations.format(durationNanos); }
    }

    /**
     * Requests sent on an open schedule for a duration, whether or not earlier ones have completed: request
     * {@code k} is due {@code pacer.dueNanos(k)} after the start (a constant rate, a linear ramp or steps), and
     * requests due at or after {@code durationNanos} are not sent.
     */
    record Open(Pacer pacer, long durationNanos) implements Arrival {
        public Open {
            if (pacer == null) throw new IllegalArgumentException("an open arrival needs a pacer");
            if (durationNanos <= 0) throw new IllegalArgumentException("an open rate needs a positive duration");
            if (pacer.dueBy(durationNanos - 1) > Integer.MAX_VALUE)
                throw new IllegalArgumentException("an open rate of " + rateLabel(pacer, Open::number) + " for " + Durations.format(durationNanos)
                        + " sends more than " + Integer.MAX_VALUE + " requests; lower the rate or the duration");
        }

        /** A constant rate. */
        public Open(double ratePerSecond, long durationNanos) {
            this(constant(ratePerSecond), durationNanos);
        }

        private static Pacer constant(double ratePerSecond) {
            if (!(ratePerSecond > 0)) throw new IllegalArgumentException("an open rate must be > 0 per second, got " + ratePerSecond);
            return new Pacer.Constant(ratePerSecond);
        }

        /** The number of requests the schedule sends: those due before the duration. */
        public long requests() { return pacer.dueBy(durationNanos - 1); }

        /** The highest rate the schedule reaches before the duration, per second (a constant rate: that rate). */
        public double peakRatePerSecond() {
            return switch (pacer) {
                case Pacer.Constant c -> c.ratePerSecond();
                case Pacer.LinearRamp r -> Math.max(r.startPerSecond(), r.ratePerSecondAt(durationNanos));
                case Pacer.Steps s -> s.ratesPerSecond().stream().limit((durationNanos - 1) / s.stepNanos() + 1)
                        .mapToDouble(Double::doubleValue).max().orElseThrow();
            };
        }

        @Override public String label() {
            // a ramp over the whole schedule says its length once: "open 100/s..5000/s for 20s"
            String rate = pacer instanceof Pacer.LinearRamp r && r.durationNanos() == durationNanos
                    ? rampLabel(r, Open::number) : rateLabel(pacer, Open::number);
            return "open " + rate + " for " + Durations.format(durationNanos);
        }

        /** A ramp's two rates, {@code 100/s..5000/s}, without its length. */
        private static String rampLabel(Pacer.LinearRamp r, java.util.function.DoubleFunction<String> number) {
            return number.apply(r.startPerSecond()) + "/s.." + number.apply(r.endPerSecond()) + "/s";
        }

        /**
         * The pacer in the words of {@code --rate}: {@code 50/s}, {@code 100/s..5000/s over 10s},
         * {@code 100/s,500/s every 5s}; each rate printed by {@code number}.
         */
        public static String rateLabel(Pacer pacer, java.util.function.DoubleFunction<String> number) {
            return switch (pacer) {
                case Pacer.Constant c -> number.apply(c.ratePerSecond()) + "/s";
                case Pacer.LinearRamp r -> rampLabel(r, number) + " over " + Durations.format(r.durationNanos());
                case Pacer.Steps st -> st.ratesPerSecond().stream().map(v -> number.apply(v) + "/s")
                        .collect(java.util.stream.Collectors.joining(",")) + " every " + Durations.format(st.stepNanos());
            };
        }

        /** A rate as written: whole, or to 3 decimals (3 significant digits below 1/s), e.g. 100/m as 1.667. */
        private static String number(double v) {
            if (v == Math.rint(v)) return String.valueOf((long) v);
            java.math.BigDecimal d = java.math.BigDecimal.valueOf(v);
            d = v >= 1 ? d.setScale(3, java.math.RoundingMode.HALF_UP) : d.round(new java.math.MathContext(3));
            return d.stripTrailingZeros().toPlainString();
        }
    }
}
