package dev.blocklab.cli;

import dev.blocklab.driver.RunSettings;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** How {@code run} repeats and times each model, as one picocli mixin parsed into the driver's {@link RunSettings}. */
final class RunOptions {
    @Mixin SharedOptions.TimeScale scale = new SharedOptions.TimeScale();

    @Option(names = "--warmups", paramLabel = "N", description = "Runs discarded before measuring (default: ${DEFAULT-VALUE}).")
    int warmups;

    @Option(names = "--repeats", paramLabel = "N", description = "Measured runs; the median is reported with the range (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--timeout", paramLabel = "D", description = "Cancel a request still running D after its intended start (real time, divided by --time-scale).")
    String timeout;

    @Mixin SharedOptions.Seed seed = new SharedOptions.Seed();

    @Option(names = "--spare-threads", paramLabel = "N", description = "Spare threads of forkjoin-managed (default: ${DEFAULT-VALUE}, as Scala's global context).")
    int spareThreads;

    /** The settings, validated by {@link RunSettings}; a bad {@code --timeout} is a one-line error naming it. */
    RunSettings settings() {
        return new RunSettings(scale.timeScale, warmups, repeats, timeout == null ? 0 : Flags.duration("--timeout", timeout), seed.seed, spareThreads);
    }
}
