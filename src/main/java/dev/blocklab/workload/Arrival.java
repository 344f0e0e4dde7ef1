package dev.blocklab.workload;

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

    /** Requests sent at a constant rate for a duration, whether or not earlier ones have completed. */
    record Open(double ratePerSecond, long durationNanos) implements Arrival {
        public Open {
            if (!(ratePerSecond > 0)) throw new IllegalArgumentException("an open rate must be > 0 per second, got " + ratePerSecond);
            if (durationNanos <= 0) throw new IllegalArgumentException("an open rate needs a positive duration");
            if (ratePerSecond * durationNanos / 1e9 > Integer.MAX_VALUE)
                throw new IllegalArgumentException("an open rate of " + ratePerSecond + "/s for " + Durations.format(durationNanos)
                        + " sends more than " + Integer.MAX_VALUE + " requests; lower the rate or the duration");
        }
        /** The number of requests the schedule sends. */
        public long requests() { return (long) Math.floor(ratePerSecond * durationNanos / 1e9); }
        @Override public String label() {
            return "open " + (ratePerSecond == Math.rint(ratePerSecond) ? String.valueOf((long) ratePerSecond) : String.valueOf(ratePerSecond))
                    + "/s for " + Durations.format(durationNanos);
        }
    }
}
