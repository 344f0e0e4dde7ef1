package dev.blocklab.model;

import dev.blocklab.preview.StructuredConcurrency;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The engine's models, in the order {@code blocklab models} lists them. The registry of everything that runs a
 * workload ({@code dev.blocklab.registry.Registry}) lists these first, then seed 002's framework variants.
 */
public final class Models {
    /** The largest pool a name may ask for. */
    static final int MAX_THREADS = 100_000;
    /** {@code ForkJoinPool}'s own bound on parallelism (its {@code MAX_CAP}). */
    static final int FORK_JOIN_MAX_PARALLELISM = 0x7fff;

    /**
     * Every engine model fails fast ({@link Model#failsFast}): the graph walkers end a request at its first failure
     * ({@link DirectStyle} throws it, {@link FutureStyle}'s outcome fails at the first failed step, a structured
     * scope at its first failed subtask).
     */
    private static final boolean FAILS_FAST = true;

    private static final List<ModelEntry> CATALOG = List.of(
            entry("sequential", "everything on the caller's thread, blocking, one request at a time",
                    0, (c, n) -> new SequentialModel(c.backend()), (n, s, d) -> SequentialModel.formula(d), false),
            entry("fixed", "blocking requests on a fixed pool of N platform threads",
                    MAX_THREADS, (c, n) -> new FixedThreadPoolModel(c.backend(), n), (n, s, d) -> PooledModel.formula(n, d), false),
            entry("cached", "blocking requests on a cached pool: a platform thread per concurrent request",
                    0, (c, n) -> new CachedThreadPoolModel(c.backend()), (n, s, d) -> CachedThreadPoolModel.formula(d), true),
            entry("forkjoin", "ForkJoinPool of N, plain blocking (Scala's global context without blocking)",
                    FORK_JOIN_MAX_PARALLELISM, (c, n) -> new ForkJoinModel(c.backend(), n), (n, s, d) -> PooledModel.formula(n, d), false),
            entry("forkjoin-managed", "ForkJoinPool of N, blocking through ManagedBlocker "
                            + "(Scala's blocking { }); spare threads up to --spare-threads (default 256)",
                    FORK_JOIN_MAX_PARALLELISM, (c, n) -> new ManagedForkJoinModel(c.backend(), n, c.managedSpareThreads()),
                    ManagedForkJoinModel::formula, false),
            entry("scala-global", "scala.concurrent.Future on Scala's global execution context "
                            + "(scala-library 2.13.16; threads = cores), plain blocking calls",
                    0, (c, n) -> new ScalaGlobalFutureModel(c.backend(), false), (n, s, d) -> ScalaGlobalFutureModel.formula(false, d), false),
            entry("scala-global-blocking", "the same with each call in scala.concurrent.blocking { } "
                            + "(up to scala.concurrent.context.maxExtraThreads, default 256, extra threads)",
                    0, (c, n) -> new ScalaGlobalFutureModel(c.backend(), true), (n, s, d) -> ScalaGlobalFutureModel.formula(true, d), false),
            entry("cf-blocking", "CompletableFuture.supplyAsync over blocking calls on a pool of N",
                    MAX_THREADS, (c, n) -> new CfBlockingModel(c.backend(), n), (n, s, d) -> CfBlockingModel.formula(n, d), false),
            entry("cf-nonblocking", "thenCompose/thenCombine over timer-completed futures, callbacks on N threads",
                    MAX_THREADS, (c, n) -> new CfNonBlockingModel(c.backend(), n), (n, s, d) -> CfNonBlockingModel.formula(n, d), false),
            entry("virtual", "a virtual thread per request, blocking code",
                    0, (c, n) -> new VirtualThreadPerTaskModel(c.backend()), (n, s, d) -> VirtualThreadPerTaskModel.formula(d), true),
            ModelEntry.anyGraph("structured", "structured", ModelEntry.Kind.MODEL,
                    "StructuredTaskScope on virtual threads: independent calls forked and joined",
                    0, 0, StructuredConcurrency.unavailableReason(), (c, n) -> new StructuredModel(c.backend()),
                    (n, s, d) -> StructuredModel.formula(d), true, FAILS_FAST));

    private Models() {}

    /**
     * An engine model that takes a size {@code 1..maxSize} after a colon, or none when {@code maxSize} is 0;
     * {@code threadPerRequest} as {@link ModelEntry#threadPerRequest}.
     */
    private static ModelEntry entry(String family, String description, int maxSize,
                                    BiFunction<ModelContext, Integer, Model> factory, ModelEntry.Predictor predictor,
                                    boolean threadPerRequest) {
        return ModelEntry.anyGraph(family, maxSize > 0 ? family + ":N" : family, ModelEntry.Kind.MODEL, description,
                maxSize > 0 ? 1 : 0, maxSize, Optional.empty(), factory, predictor, threadPerRequest, FAILS_FAST);
    }

    /**
     * The engine models that call the backend in its non-blocking form ({@link dev.blocklab.backend.Backend#callAsync}),
     * so a real server's non-blocking client serves them (Vert.x PostgreSQL, Lettuce); every other engine model
     * blocks a thread on each call (HikariCP, Jedis). {@code ModelContractTest} checks each model against it.
     */
    static final java.util.Set<String> NON_BLOCKING_CALLS = java.util.Set.of("cf-nonblocking");

    /** Every engine model, in the order {@code blocklab models} lists them. */
    public static List<ModelEntry> catalog() { return CATALOG; }

    /**
     * Parses an engine model's name such as {@code fixed:8} without creating threads; the registry parses every
     * entry's name the same way.
     *
     * @throws IllegalArgumentException naming the problem in one line
     */
    public static ModelSpec parse(String spec) { return ModelSpec.parse(spec, CATALOG); }

    /**
     * Creates an engine model from its name (for tests and experiments that name a model in code).
     *
     * @throws IllegalArgumentException for an unknown or malformed name
     * @throws UnsupportedOperationException when the model cannot run on this JVM
     */
    public static Model create(String spec, ModelContext context) { return parse(spec).create(context); }
}
