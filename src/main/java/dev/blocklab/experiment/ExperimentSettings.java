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
 */
public record ExperimentSettings(boolean full, long timeScale, Progress progress, Consumer<Object> rowSink,
                                 Environment environment) {
    public static final long QUICK_TIME_SCALE = 10;

    public ExperimentSettings {
        if (timeScale < 1) throw new IllegalArgumentException("time scale must be >= 1");
    }

    public static ExperimentSettings quick() {
        return new ExperimentSettings(false, QUICK_TIME_SCALE, Progress.NONE, row -> {}, Environment.current());
    }

    public String scaleLabel() { return full ? "full" : "quick, delays / " + timeScale; }

    public ExperimentSettings withTimeScale(long divisor) {
        return new ExperimentSettings(full, divisor, progress, rowSink, environment);
    }
}
