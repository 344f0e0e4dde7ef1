package dev.blocklab.model;

import dev.blocklab.workload.Workload;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A parsed model name: the registry entry and its size ({@code fixed:8} is the entry {@code fixed} with size 8).
 * Parsed once where the name enters (the command line, an HTTP path); everything after takes the spec.
 *
 * @param entry the registered entry
 * @param size  the size after the colon, or 0 when the entry takes none
 */
public record ModelSpec(ModelEntry entry, int size) {

    public ModelSpec {
        if (entry.needsSize() ? size < entry.minSize() || size > entry.maxSize() : size != 0)
            throw new IllegalArgumentException("model '" + entry.family() + "': size " + size);
    }

    /** The name as written, e.g. {@code fixed:8}; what reports show. */
    public String text() { return entry.needsSize() ? entry.family() + ":" + size : entry.family(); }

    @Override public String toString() { return text(); }

    /** True when a request runs on (and holds) the thread that submits it, one at a time: {@code sequential}. */
    public boolean runsOnCaller() { return runsOnCaller(text()); }

    /** True when every request in flight holds a thread of its own ({@link ModelEntry#threadPerRequest}). */
    public boolean threadPerRequest() { return entry.threadPerRequest(); }

    /** True when a request ends at its first failure ({@link ModelEntry#failsFast}). */
    public boolean failsFast() { return entry.failsFast(); }

    /**
     * The platform threads this model may start with {@code inFlight} requests in flight at once: one each under
     * {@code cached}, up to its size under a fixed pool ({@code fixed:N}, {@code cf-blocking:N}, {@code forkjoin:N});
     * 0 for the rest, whose platform threads are bounded by the cores or a few hundred spares, or are virtual.
     */
    public long platformThreadsAtMost(long inFlight) {
        return switch (entry.family()) {
            case "cached" -> inFlight;
            case "fixed", "cf-blocking", "forkjoin" -> Math.min(size, inFlight);
            default -> 0;
        };
    }

    /**
     * True for an engine model whose calls use the backend's non-blocking form ({@code callAsync}): on a real
     * server, the non-blocking client (one shared Lettuce connection for Redis) serves it.
     */
    public boolean callsNonBlocking() { return entry.kind() == ModelEntry.Kind.MODEL && Models.NON_BLOCKING_CALLS.contains(entry.family()); }

    /** {@link #runsOnCaller()} for a model's name as given, before it is parsed. */
    public static boolean runsOnCaller(String name) { return name.equals("sequential"); }

    /**
     * Creates a fresh instance; close it.
     *
     * @throws UnsupportedOperationException when the entry cannot run on this JVM
     */
    public Model create(ModelContext context) {
        if (entry.unavailable().isPresent())
            throw new UnsupportedOperationException("model '" + text() + "' is unavailable: " + entry.unavailable().get());
        return entry.factory().apply(context, size);
    }

    /**
     * What theory predicts for {@code demand}, from the entry's formula: no instance, no thread.
     *
     * @param spareThreads as {@link ModelContext#managedSpareThreads}
     * @throws UnsupportedOperationException when the entry cannot run on this JVM
     */
    public Prediction predict(Demand demand, int spareThreads) {
        if (entry.unavailable().isPresent())
            throw new UnsupportedOperationException("model '" + text() + "' is unavailable: " + entry.unavailable().get());
        return entry.predictor().predict(size, spareThreads, demand);
    }

    /**
     * Checks that this model can run the workload.
     *
     * @throws IllegalArgumentException naming the model, the workload and why, in one line
     */
    public ModelSpec check(Workload workload) {
        entry.cannotRun().apply(workload.graph()).ifPresent(why -> {
            throw new IllegalArgumentException("model '" + text() + "' cannot run workload '" + workload.name() + "': " + why);
        });
        return this;
    }

    /**
     * Parses a name such as {@code fixed:8} against {@code entries} without creating threads.
     *
     * @throws IllegalArgumentException naming the problem in one line
     */
    public static ModelSpec parse(String spec, List<ModelEntry> entries) {
        String family = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        ModelEntry entry = entries.stream().filter(i -> i.family().equals(family)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown model '" + spec + "'"
                        + dev.blocklab.Names.didYouMean(family, entries.stream().map(ModelEntry::family).toList()) + " (known: "
                        + entries.stream().map(ModelEntry::syntax).collect(Collectors.joining(", ")) + ")"));
        return new ModelSpec(entry, sizeOf(entry, spec));
    }

    private static int sizeOf(ModelEntry entry, String spec) {
        int colon = spec.indexOf(':');
        if (!entry.needsSize()) {
            if (colon >= 0) throw new IllegalArgumentException("model '" + entry.family() + "' takes no size: write '" + entry.syntax() + "'");
            return 0;
        }
        if (colon < 0) throw new IllegalArgumentException("model '" + spec + "' needs a thread count: write '" + entry.syntax() + "', e.g. " + entry.example());
        String size = spec.substring(colon + 1);
        int n;
        try {
            n = Integer.parseInt(size);
        } catch (NumberFormatException e) {
            if (size.matches("-?\\d+"))   // a whole number, too large for an int
                throw new IllegalArgumentException("model '" + spec + "': " + (size.startsWith("-")
                        ? "the pool needs at least " + entry.minSize() + (entry.minSize() == 1 ? " thread" : " threads")
                        : "at most " + entry.maxSize() + " threads") + ", got " + size);
            throw new IllegalArgumentException("model '" + spec + "': '" + size + "' is not a whole number of threads");
        }
        if (n < entry.minSize()) throw new IllegalArgumentException("model '" + spec + "': the pool needs at least "
                + entry.minSize() + (entry.minSize() == 1 ? " thread" : " threads") + ", got " + n);
        if (n > entry.maxSize()) throw new IllegalArgumentException("model '" + spec + "': at most " + entry.maxSize() + " threads, got " + n);
        return n;
    }
}
