package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.result.Environment;

import java.util.function.Consumer;

/**
 * How to run an experiment.
 *
 * @param full        true for the article's real delays and sizes, false for the quick scale
 * @param timeScale   the divisor of every delay; quick runs use 10, tests 100, full runs 1
 * @param progress    where progress lines go
 * @param rowSink     receives every row as soon as it is measured
 * @param environment the machine, recorded once
 * @param backend     where the downstream calls go, for the experiments that can choose (frameworks, frameworks-capacity)
 */
public record ExperimentSettings(boolean full, long timeScale, Progress progress, Consumer<Object> rowSink,
                                 Environment environment, CallBackend backend) {
    public static final long QUICK_TIME_SCALE = dev.blocklab.Defaults.QUICK_TIME_SCALE;

    /** Where an experiment's downstream calls go ({@code --backend}). */
    public enum CallBackend {
        /** The embedded simulated backend: timers in this process, no sockets. */
        SIMULATED,
        /** A real {@code BackendServer} started in this process on 127.0.0.1, called over HTTP. */
        HTTP;

        /** {@code simulated} or {@code http}; anything else is an error naming {@code --backend}. */
        public static CallBackend parse(String text) {
            for (CallBackend b : values()) if (b.label().equals(text)) return b;
            throw new IllegalArgumentException("--backend must be simulated or http, got '" + text + "'");
        }

        public String label() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public ExperimentSettings {
        dev.blocklab.workload.Durations.checkTimeScale(timeScale);
        java.util.Objects.requireNonNull(backend, "backend");
    }

    /** With the simulated backend. */
    public ExperimentSettings(boolean full, long timeScale, Progress progress, Consumer<Object> rowSink, Environment environment) {
        this(full, timeScale, progress, rowSink, environment, CallBackend.SIMULATED);
    }

    public static ExperimentSettings quick() {
        return new ExperimentSettings(false, QUICK_TIME_SCALE, Progress.NONE, row -> {}, Environment.current());
    }

    public String scaleLabel() { return (full ? "full" : "quick") + (full && timeScale == 1 ? "" : ", " + delays(timeScale)); }

    /** {@code delays / N}, or {@code real delays} at a time scale of 1: how a label says the time scale. */
    public static String delays(long timeScale) { return timeScale == 1 ? "real delays" : "delays / " + timeScale; }

    public ExperimentSettings withTimeScale(long divisor) {
        return new ExperimentSettings(full, divisor, progress, rowSink, environment, backend);
    }

    public ExperimentSettings withBackend(CallBackend calls) {
        return new ExperimentSettings(full, timeScale, progress, rowSink, environment, calls);
    }
}
