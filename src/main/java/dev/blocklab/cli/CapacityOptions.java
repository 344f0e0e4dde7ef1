package dev.blocklab.cli;

import dev.blocklab.capacity.Capacity;
import dev.blocklab.capacity.Slo;
import dev.blocklab.experiment.RateSearch;
import dev.blocklab.registry.Registry;
import dev.blocklab.workload.Workload;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/** The search options that {@code capacity} and {@code advise} share, as one picocli mixin. */
final class CapacityOptions {
    @Option(names = "--workload", required = true, paramLabel = "NAME|FILE",
            description = "A built-in workload, a YAML/JSON workload file, or 'frameworks' (seed 002's use case, 200 ms delays, which framework variants run).")
    String workload;

    @Option(names = "--slo", paramLabel = "OBJECTIVE",
            description = "An objective every rate must meet, e.g. 'p99<=550ms' (p50, p90, p99, p999) or 'success>=99.9%%'; repeat for several (default: p99<=550ms and success>=99.9%%).")
    List<String> slos;

    @Option(names = "--start-rate", paramLabel = "RATE", defaultValue = "10/s", description = "First rate tried (default: ${DEFAULT-VALUE}).")
    String startRate;

    @Option(names = "--max-rate", paramLabel = "RATE", defaultValue = "20000/s", description = "The search never offers more (default: ${DEFAULT-VALUE}).")
    String maxRate;

    @Option(names = "--factor", paramLabel = "F", defaultValue = "2", description = "Each rate is the last one times F until an objective breaks (default: ${DEFAULT-VALUE}).")
    double factor;

    @Option(names = "--bisections", paramLabel = "N", defaultValue = "3", description = "Halvings of the gap between the last rate met and the first broken (default: ${DEFAULT-VALUE}).")
    int bisections;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3", description = "Runs per rate; the run of median p99 decides, the range is reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--step", paramLabel = "D", defaultValue = "5s", description = "Length of each run, real time: long enough for a queue to show (default: ${DEFAULT-VALUE}).")
    String step;

    @Option(names = "--timeout", paramLabel = "D", description = "A request still running D after its intended start fails in process, D after its send over HTTP "
            + "(as attack --timeout) (default: none in process, 10s over HTTP).")
    String timeout;

    @picocli.CommandLine.Mixin SharedOptions.Seed seed = new SharedOptions.Seed();

    /** Where the calls go ({@code --backend} and its pools), repeated in the reproduce line; set by the command. */
    List<String> backendArgs = List.of();

    /** The workload by name or path, or seed 002's use case for 'frameworks' ({@link Registry#workload}). */
    Workload workload() { return Registry.workload(workload); }

    /** One rate of the load core's syntax, or a one-line error naming {@code flag}. */
    private static double rate(String flag, String text) {
        try {
            return dev.blocklab.load.Rates.perSecond(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not a rate (e.g. 100/s)");
        }
    }

    Capacity.Settings settings() {
        List<Slo> parsed = slos == null ? Slo.DEFAULTS : slos.stream().map(Slo::parse).toList();
        double start = rate("--start-rate", startRate);
        double max = rate("--max-rate", maxRate);
        if (max < start) throw new IllegalArgumentException("--max-rate must be at least --start-rate");
        if (!(factor > 1)) throw new IllegalArgumentException("--factor must be > 1, got " + factor);
        if (bisections < 0) throw new IllegalArgumentException("--bisections must be >= 0");
        return new Capacity.Settings(parsed, new RateSearch(Math.max(1, start), factor, max, bisections, 1),
                Flags.positive("--repeats", repeats), Flags.duration("--step", step),
                timeout == null ? 0 : Flags.duration("--timeout", timeout), seed.seed);
    }

    /** The command line that reproduces this search with {@code entries}. */
    String command(String name, List<String> entries) {
        List<String> parts = new ArrayList<>(List.of("./blocklab", name, "--workload", workload));
        for (String e : entries) parts.addAll(List.of("--entry", e));
        for (Slo s : slos == null ? Slo.DEFAULTS : slos.stream().map(Slo::parse).toList()) parts.addAll(List.of("--slo", "'" + s.text() + "'"));
        parts.addAll(List.of("--start-rate", startRate, "--max-rate", maxRate, "--factor", String.valueOf(factor), "--bisections",
                String.valueOf(bisections), "--repeats", String.valueOf(repeats), "--step", step, "--seed", String.valueOf(seed.seed)));
        if (timeout != null) parts.addAll(List.of("--timeout", timeout));
        parts.addAll(backendArgs);
        return String.join(" ", parts);
    }
}
