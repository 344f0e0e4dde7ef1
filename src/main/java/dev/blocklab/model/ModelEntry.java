package dev.blocklab.model;

import dev.blocklab.workload.Graph;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * One registered way of executing a workload: an engine model ({@code fixed:N}) or one of seed 002's framework
 * variants ({@code reactor}). Parse a name into a {@link ModelSpec} once, at the edge, and create from the spec.
 *
 * @param family      the name before the colon, unique across the registry
 * @param syntax      how to write it, e.g. {@code fixed:N}
 * @param kind        which list it comes from, shown by {@code blocklab models}
 * @param description one line for {@code blocklab models}; {@code N} stands for the size
 * @param minSize     the smallest size after the colon; 0 when the name takes no size
 * @param maxSize     the largest size after the colon; 0 when the name takes no size
 * @param unavailable why it cannot run on this JVM, or empty
 * @param cannotRun   why it cannot run a workload of this graph (one line), or empty when it can
 * @param factory     makes a fresh instance from the context and the size (0 when it takes none)
 * @param predictor   what theory predicts for a demand, without an instance (no thread started); an instance's
 *                    {@link Model#predict} gives the same
 * @param threadPerRequest true when every request in flight holds a thread of its own until it ends (a virtual
 *                    thread, or a platform thread of a pool without bound), so a batch of N starts N threads at once
 * @param failsFast   true when a request ends at its first failure, false when it waits for every call it started
 *                    ({@link Model#failsFast}, which its instances answer the same); predictions without an instance
 *                    read it
 */
public record ModelEntry(String family, String syntax, Kind kind, String description, int minSize, int maxSize,
                         Optional<String> unavailable, Function<Graph, Optional<String>> cannotRun,
                         BiFunction<ModelContext, Integer, Model> factory, Predictor predictor, boolean threadPerRequest,
                         boolean failsFast) {

    /** An entry's prediction: a pure function of its size, its context's settings and the demand. */
    @FunctionalInterface
    public interface Predictor {
        /**
         * @param size         the size after the colon, or 0 when the entry takes none
         * @param spareThreads the threads a managed fork-join pool may add ({@link ModelContext#managedSpareThreads})
         */
        Prediction predict(int size, int spareThreads, Demand demand);
    }

    /** Where an entry comes from. */
    public enum Kind {
        /** An engine model: runs any workload graph. */
        MODEL("model"),
        /** A framework variant of seed 002: runs only the frameworks use case. */
        VARIANT("variant");

        private final String label;

        Kind(String label) { this.label = label; }

        public String label() { return label; }
    }

    public ModelEntry {
        Objects.requireNonNull(family, "family");
        if (family.isEmpty() || family.contains(":")) throw new IllegalArgumentException("bad family '" + family + "'");
        if (minSize < 0 || maxSize < minSize || (maxSize > 0) != (minSize > 0))
            throw new IllegalArgumentException(family + ": sizes " + minSize + ".." + maxSize);
        Objects.requireNonNull(unavailable, "unavailable");
        Objects.requireNonNull(cannotRun, "cannotRun");
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(predictor, "predictor");
    }

    /** An entry that runs any graph. */
    public static ModelEntry anyGraph(String family, String syntax, Kind kind, String description, int minSize, int maxSize,
                                      Optional<String> unavailable, BiFunction<ModelContext, Integer, Model> factory,
                                      Predictor predictor, boolean threadPerRequest, boolean failsFast) {
        return new ModelEntry(family, syntax, kind, description, minSize, maxSize, unavailable, g -> Optional.empty(), factory,
                predictor, threadPerRequest, failsFast);
    }

    /** True when the name takes a size after a colon ({@code fixed:8}). */
    public boolean needsSize() { return maxSize > 0; }

    /** The name of an example instance, for tests and help: the family, with its smallest useful size. */
    public String example() { return needsSize() ? family + ":" + Math.max(4, minSize) : family; }
}
