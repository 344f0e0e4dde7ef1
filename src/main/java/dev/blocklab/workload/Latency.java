package dev.blocklab.workload;

import java.util.random.RandomGenerator;

/** How long a downstream call takes, before the time scale is applied. All values in nanoseconds. */
public sealed interface Latency {

    /** Draws one latency in nanoseconds. */
    long sampleNanos(RandomGenerator random);

    /** The expected latency in nanoseconds, used by predictions and the ideal critical path. */
    long expectedNanos();

    /** A human label such as {@code 200ms} or {@code lognormal(p50=20ms,p99=200ms)}. */
    String label();

    record Fixed(long nanos) implements Latency {
        public Fixed {
            if (nanos < 0) throw new IllegalArgumentException("latency must be >= 0, got " + nanos + " ns");
        }
        @Override public long sampleNanos(RandomGenerator random) { return nanos; }
        @Override public long expectedNanos() { return nanos; }
        @Override public String label() { return Durations.format(nanos); }
    }

    record Uniform(long minNanos, long maxNanos) implements Latency {
        public Uniform {
            if (minNanos < 0 || maxNanos < minNanos)
                throw new IllegalArgumentException("uniform latency needs 0 <= min <= max, got "
                        + Durations.format(minNanos) + ".." + Durations.format(maxNanos));
        }
        @Override public long sampleNanos(RandomGenerator random) {
            return minNanos == maxNanos ? minNanos : random.nextLong(minNanos, maxNanos + 1);
        }
        @Override public long expectedNanos() { return (minNanos + maxNanos) / 2; }
        @Override public String label() { return "uniform(" + Durations.format(minNanos) + ".." + Durations.format(maxNanos) + ")"; }
    }

    /** Log-normal latency given its median and 99th percentile; the shape most real services show. */
    record LogNormal(long p50Nanos, long p99Nanos) implements Latency {
        /** z-score of the 99th percentile of a standard normal distribution. */
        private static final double Z99 = 2.3263478740408408;

        public LogNormal {
            if (p50Nanos <= 0 || p99Nanos < p50Nanos)
                throw new IllegalArgumentException("log-normal latency needs 0 < p50 <= p99, got p50="
                        + Durations.format(p50Nanos) + " p99=" + Durations.format(p99Nanos));
        }
        double mu() { return Math.log(p50Nanos); }
        double sigma() { return (Math.log(p99Nanos) - Math.log(p50Nanos)) / Z99; }
        @Override public long sampleNanos(RandomGenerator random) {
            return Math.round(Math.exp(mu() + sigma() * random.nextGaussian()));
        }
        @Override public long expectedNanos() { return Math.round(Math.exp(mu() + sigma() * sigma() / 2)); }
        @Override public String label() {
            return "lognormal(p50=" + Durations.format(p50Nanos) + ",p99=" + Durations.format(p99Nanos) + ")";
        }
    }
}
