package dev.blocklab.attack;

import dev.blocklab.load.Pacer;
import dev.blocklab.workload.Durations;

import java.util.Locale;
import java.util.stream.Collectors;

/** When requests are sent: on an open schedule whatever the responses do, or by a closed group of users. */
public sealed interface Schedule {

    /** How long requests are sent, in nanoseconds. */
    long durationNanos();

    /** A short description such as {@code 1000/s for 10s}. */
    String label();

    /**
     * Open model: request {@code i} is due {@code pacer.dueNanos(i)} after the start and is sent then, however
     * many responses are outstanding; requests due at or after {@code durationNanos} are not sent.
     */
    record Open(Pacer pacer, long durationNanos) implements Schedule {
        public Open {
            if (pacer == null) throw new IllegalArgumentException("an open schedule needs a pacer");
            if (durationNanos <= 0) throw new IllegalArgumentException("--duration must be positive");
        }

        @Override public String label() {
            String rate = switch (pacer) {
                case Pacer.Constant c -> rate(c.ratePerSecond());
                case Pacer.LinearRamp r -> rate(r.startPerSecond()) + ".." + rate(r.endPerSecond()) + " over " + Durations.format(r.durationNanos());
                case Pacer.Steps s -> s.ratesPerSecond().stream().map(Open::rate).collect(Collectors.joining(","))
                        + " every " + Durations.format(s.stepNanos());
            };
            return rate + " for " + Durations.format(durationNanos);
        }

        private static String rate(double perSecond) {
            return perSecond == Math.rint(perSecond) ? String.format(Locale.ROOT, "%.0f/s", perSecond)
                    : String.format(Locale.ROOT, "%.2f/s", perSecond);
        }
    }

    /** Closed model: {@code users} loops, each sending its next request when its last one completes. */
    record Closed(int users, long durationNanos) implements Schedule {
        public Closed {
            if (users < 1) throw new IllegalArgumentException("--users must be at least 1, got " + users);
            if (durationNanos <= 0) throw new IllegalArgumentException("--duration must be positive");
        }

        @Override public String label() { return users + " users for " + Durations.format(durationNanos); }
    }
}
