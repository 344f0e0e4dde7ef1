package dev.blocklab.registry;

import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.model.ModelEntry;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.model.Models;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;
import dev.blocklab.workload.Workloads;

import java.util.List;
import java.util.stream.Stream;

/**
 * The one registry of everything that can execute a workload: the engine's models ({@link Models}), then seed
 * 002's framework variants ({@link FrameworkVariants#entries()}), each a {@link ModelEntry} with its syntax,
 * description, the workloads it can run and its factory. A name is parsed once, where it enters, into a
 * {@link ModelSpec}; a variant asked to run a workload other than the frameworks use case is refused by
 * {@link ModelSpec#check} in one line. Thread-safe, stateless.
 */
public final class Registry {
    /** The name under which {@link #workload} finds seed 002's use case. */
    public static final String FRAMEWORKS_WORKLOAD = "frameworks";
    /** Its default arrival: a batch, as the engine's built-in workloads. */
    static final int FRAMEWORKS_BATCH = 100;

    private static final List<ModelEntry> ALL = Stream.concat(Models.catalog().stream(), FrameworkVariants.entries().stream()).toList();

    private Registry() {}

    /** Every entry, engine models first, in the order {@code blocklab models} lists them; families are unique. */
    public static List<ModelEntry> all() { return ALL; }

    /**
     * Parses a name such as {@code fixed:8} or {@code reactor} without creating threads.
     *
     * @throws IllegalArgumentException naming the problem in one line
     */
    public static ModelSpec parse(String name) { return ModelSpec.parse(name, ALL); }

    /**
     * Parses a name for runs of {@code workload}, as {@link #parse(String)}, with one alias: on seed 002's use case
     * (the graph the framework variants run) a name that an engine model and a framework variant share
     * ({@code virtual}, {@code structured}, {@code sequential}) names the variant, registered as
     * {@code frameworks-virtual} etc., as the frameworks comparison calls it. Not checked against the workload:
     * see {@link ModelSpec#check}.
     *
     * @throws IllegalArgumentException naming the problem in one line
     */
    public static ModelSpec parse(String name, Workload workload) {
        String variant = FrameworkVariants.CLASH_PREFIX + name;
        if (FrameworksUseCase.cannotRun(workload.graph()).isEmpty() && ALL.stream().anyMatch(e -> e.family().equals(variant)))
            return parse(variant);
        return parse(name);
    }

    /**
     * A workload by name or path, as {@link Workloads#resolve}, plus {@value #FRAMEWORKS_WORKLOAD}: seed 002's use
     * case (posts and albums after 200 ms, comments and photos after 20 ms, a batch of {@value #FRAMEWORKS_BATCH}),
     * the one workload the framework variants run.
     */
    public static Workload workload(String nameOrPath) {
        if (nameOrPath.equals(FRAMEWORKS_WORKLOAD))
            return FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(FRAMEWORKS_BATCH));
        try {
            return Workloads.resolve(nameOrPath);
        } catch (IllegalArgumentException e) {   // name this one too among the built-in ones
            if (!e.getMessage().startsWith("unknown workload")) throw e;
            String message = e.getMessage().replace("; or give the path",
                    ", " + FRAMEWORKS_WORKLOAD + " (seed 002's use case, which the framework variants run); or give the path");
            String unknown = "unknown workload '" + nameOrPath + "'";
            if (!message.contains("did you mean"))   // this one is not among the names the built-in list suggests from
                message = message.replace(unknown, unknown + dev.blocklab.Names.didYouMean(nameOrPath, List.of(FRAMEWORKS_WORKLOAD)));
            throw new IllegalArgumentException(message, e);
        }
    }
}
