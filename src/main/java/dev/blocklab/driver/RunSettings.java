package dev.blocklab.driver;

import dev.blocklab.Defaults;

/**
 * How the in-process driver runs a workload. Defaults live in {@link #DEFAULTS}.
 *
 * @param timeScaleDivisor    every delay and timeout divided by this (1: real time; tests use 100)
 * @param warmups             runs made and discarded before measuring
 * @param repeats             measured runs; the result is the run of median wall time
 * @param requestTimeoutNanos cancel a request still running after this long (0: never), real time before scaling
 * @param seed                seed of every latency and failure draw
 * @param spareThreads        spare threads of {@code forkjoin-managed}
 */
public record RunSettings(long timeScaleDivisor, int warmups, int repeats, long requestTimeoutNanos, long seed,
                          int spareThreads) {
    public static final RunSettings DEFAULTS = new RunSettings(Defaults.TIME_SCALE, Defaults.WARMUPS, Defaults.REPEATS, 0,
            Defaults.SEED, Defaults.SPARE_THREADS);

    public RunSettings {
        dev.blocklab.workload.Durations.checkTimeScale(timeScaleDivisor);
        if (warmups < 0) throw new IllegalArgumentException("--warmups must be at least 0, got " + warmups);
        if (repeats < 1) throw new IllegalArgumentException("--repeats must be at least 1, got " + repeats);
        if (requestTimeoutNanos < 0) throw new IllegalArgumentException("--timeout must not be negative");
        if (requestTimeoutNanos > 0 && requestTimeoutNanos / timeScaleDivisor == 0)
            throw new IllegalArgumentException("--timeout " + requestTimeoutNanos + "ns divided by --time-scale " + timeScaleDivisor
                    + " is under a nanosecond; give a longer timeout");
        if (spareThreads < 0) throw new IllegalArgumentException("--spare-threads must be at least 0, got " + spareThreads);
    }

    public RunSettings withTimeScale(long divisor) {
        return new RunSettings(divisor, warmups, repeats, requestTimeoutNanos, seed, spareThreads);
    }

    public RunSettings withRuns(int newWarmups, int newRepeats) {
        return new RunSettings(timeScaleDivisor, newWarmups, newRepeats, requestTimeoutNanos, seed, spareThreads);
    }

    public RunSettings withRequestTimeoutNanos(long nanos) {
        return new RunSettings(timeScaleDivisor, warmups, repeats, nanos, seed, spareThreads);
    }
}
