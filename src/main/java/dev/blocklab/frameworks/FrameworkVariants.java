package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.ModelEntry;
import dev.blocklab.model.Prediction;
import dev.blocklab.preview.StructuredConcurrency;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The frameworks comparison's variants, in the order reports list them. Every variant is a {@link Model} over
 * any {@link Backend} and runs {@link FrameworksUseCase}'s request; creating one may start threads (and, for
 * Pekko, an actor system), so close what you create. {@link #entries()} lists the same variants for the registry
 * of everything that runs a workload, where they run the frameworks workload only.
 */
public final class FrameworkVariants {
    /** The article's I/O pool: 16 threads at 200 ms, 24 at 400 ms. */
    public static final int ARTICLE_POOL_200MS = 16;
    public static final int ARTICLE_POOL_400MS = 24;
    /**
     * The threads a Disruptor variant's handlers run on, beside the article's Disruptor pools (11 and 12): 11 for
     * {@code disruptor-stages}, 4 for {@code disruptor-latch} and {@code disruptor-async}; 0 for another family.
     */
    public static int disruptorThreads(String family) {
        return switch (family) {
            case "disruptor-stages" -> DisruptorStagesVariant.THREADS;
            case "disruptor-latch", "disruptor-async" -> DisruptorVariant.THREADS;
            default -> 0;
        };
    }

    /** The smallest I/O pool: one thread for each of the four calls. */
    static final int MIN_POOL = 4;
    static final int MAX_POOL = 100_000;
    /** Prefix of the registry names of variants whose names an engine model already has ({@code virtual}). */
    public static final String CLASH_PREFIX = "frameworks-";

    /**
     * One variant.
     *
     * @param name        the name in reports, pool size included where it has one (e.g. {@code invokeall:16})
     * @param description one line: how it runs the request, where the merge runs
     * @param unavailable why it cannot run on this JVM, or empty
     * @param formula     what theory predicts for a demand, without an instance (no server, actor system or thread
     *                    started); an instance's {@link Model#predict} gives the same
     * @param failsFast   as its instances' {@link Model#failsFast}, for a prediction made from {@code formula}
     */
    public record Variant(String name, String description, Optional<String> unavailable,
                          BiFunction<Backend, FrameworksUseCase, Model> factory, Function<Demand, Prediction> formula,
                          boolean failsFast) {
        /** Creates the variant; throws {@link UnsupportedOperationException} when it is unavailable. */
        public Model create(Backend backend, FrameworksUseCase useCase) {
            if (unavailable.isPresent())
                throw new UnsupportedOperationException("variant '" + name + "' is unavailable: " + unavailable.get());
            return factory.apply(backend, useCase);
        }
    }

    /** How a variant is made: from the backend, the use case and its I/O pool size (ignored when it has no pool). */
    @FunctionalInterface
    private interface Factory {
        Model create(Backend backend, FrameworksUseCase useCase, int poolSize);
    }

    /** A variant's prediction from its I/O pool size (ignored when it has no pool) and the demand. */
    @FunctionalInterface
    private interface Formula {
        Prediction predict(int poolSize, Demand demand);
    }

    /**
     * A variant before its pool is sized.
     *
     * @param family      its name without the pool size
     * @param pooled      true when it has an I/O pool of N threads ({@code invokeall:N})
     * @param description one line, {@code N} standing for the pool size
     * @param formula     its prediction, as its instances give it
     * @param failsFast   as its instances' {@link Model#failsFast}
     */
    private record Family(String family, boolean pooled, String description, Optional<String> unavailable, Factory factory,
                          Formula formula, boolean failsFast) {
        /** An in-process family: it fails fast unless it is one of {@link #WAIT_FOR_EVERY_CALL}. */
        Family(String family, boolean pooled, String description, Optional<String> unavailable, Factory factory,
               Formula formula) {
            this(family, pooled, description, unavailable, factory, formula, !WAIT_FOR_EVERY_CALL.contains(family));
        }

        Family(String family, boolean pooled, String description, Optional<String> unavailable, Factory factory,
               Function<Demand, Prediction> formula) {
            this(family, pooled, description, unavailable, factory, (n, d) -> formula.apply(d));
        }

        /**
         * This family's code as JAX-RS resources on Tomcat ({@link TomcatJerseyVariant}): its pool, its prediction
         * (in other words) and how its requests end are this family's, so the two cannot drift apart.
         */
        Family onTomcat(String tomcatDescription) {
            Formula onTomcat = (n, d) -> TomcatJerseyVariant.formula(family, formula.predict(n, d));
            return new Family(TomcatJerseyVariant.PREFIX + family, pooled, tomcatDescription + ON_TOMCAT, NONE,
                    (b, u, n) -> new TomcatJerseyVariant(b, u, family, n, d -> onTomcat.predict(n, d), failsFast),
                    onTomcat, failsFast);
        }

        /** This family with a pool of {@code n} threads; a family without a pool is given 0, whatever {@code n}. */
        Variant sized(int n) {
            int size = pooled ? n : 0;
            return new Variant(pooled ? family + ":" + size : family, description.replace(" N ", " " + size + " "), unavailable,
                    (b, u) -> factory.create(b, u, size), d -> formula.predict(size, d), failsFast);
        }

        ModelEntry entry() {
            String name = clashes(family) ? CLASH_PREFIX + family : family;
            return new ModelEntry(name, pooled ? name + ":N" : name, ModelEntry.Kind.VARIANT,
                    "seed 002: " + description, pooled ? MIN_POOL : 0, pooled ? MAX_POOL : 0, unavailable,
                    FrameworksUseCase::cannotRun, (c, n) -> factory.create(c.backend(), new FrameworksUseCase(), n),
                    (n, spare, d) -> formula.predict(n, d), THREAD_PER_REQUEST.contains(family), failsFast);
        }
    }

    private static final String ON_TOMCAT = " in Tomcat 11 + Jersey 3 over HTTP";
    /** The families that start a virtual thread per request; every other holds its requests on bounded pools. */
    private static final java.util.Set<String> THREAD_PER_REQUEST = java.util.Set.of("virtual", "structured");
    /**
     * The in-process families whose request waits for every call it started before it completes, a failed one
     * included ({@link Model#failsFast} false): {@code invokeAll}, {@code allOf().get()}, {@code thenCombine}, the
     * Disruptor's {@code allOf} before its merge ring (on Tomcat as in process: {@link Family#onTomcat}). Every other
     * ends a request at its first failure.
     */
    private static final java.util.Set<String> WAIT_FOR_EVERY_CALL = java.util.Set.of("invokeall", "supplyasync", "cf-suspended",
            "disruptor-latch", "disruptor-async", "virtual");
    private static final Optional<String> NONE = Optional.empty();

    private static final List<Family> IN_PROCESS = List.of(
            new Family("sequential", false, "the four calls one after another on the request thread, which merges", NONE,
                    (b, u, n) -> new SequentialVariant(b, u), SequentialVariant::formula),
            new Family("invokeall", true, "ExecutorService.invokeAll of the four blocking calls on N I/O threads; merge on the request thread",
                    NONE, InvokeAllVariant::new, InvokeAllVariant::formula),
            new Family("supplyasync", true, "supplyAsync on N I/O threads, allOf().get(); merge on the request thread",
                    NONE, SupplyAsyncVariant::new, SupplyAsyncVariant::formula),
            new Family("cf-suspended", true, "supplyAsync + thenCombineAsync on N I/O threads, response completed there (suspended)",
                    NONE, SuspendedFuturesVariant::new, SuspendedFuturesVariant::formula),
            new Family("rx-blocking", true, "RxJava 3 zip over blocking calls on N rx-io threads (the article's table)",
                    NONE, RxBlockingVariant::new, RxBlockingVariant::formula),
            new Family("rx-nonblocking", false, "RxJava 3 zip over non-blocking calls, merges on one rx-cpu thread per core",
                    NONE, (b, u, n) -> new RxNonBlockingVariant(b, u), d -> FrameworksUseCase.overlapping(d, RxNonBlockingVariant.HOW)),
            new Family("reactor", false, "Reactor Mono.zip over non-blocking calls, merges on one reactor-cpu thread per core",
                    NONE, (b, u, n) -> new ReactorVariant(b, u), d -> FrameworksUseCase.overlapping(d, ReactorVariant.HOW)),
            new Family("vertx-event-loop", false, "Vert.x 5: each request on one event loop (one per core), non-blocking calls, both merges on that loop (blocking it for their CPU time)",
                    NONE, (b, u, n) -> new EventLoopVariant(b, u), d -> FrameworksUseCase.overlapping(d, EventLoopVariant.HOW)),
            new Family("disruptor-latch", false, "Disruptor 4, calls in parallel (non-blocking), merge handlers; request thread waits",
                    NONE, (b, u, n) -> new DisruptorVariant(b, u, true), d -> FrameworksUseCase.overlapping(d, DisruptorVariant.HOW)),
            new Family("disruptor-async", false, "Disruptor 4, calls in parallel (non-blocking), merge handlers; response suspended",
                    NONE, (b, u, n) -> new DisruptorVariant(b, u, false), d -> FrameworksUseCase.overlapping(d, DisruptorVariant.HOW)),
            new Family("disruptor-stages", false, "the original's wiring: chained stages of 2 blocking handlers, calls one after another; request thread waits",
                    NONE, (b, u, n) -> new DisruptorStagesVariant(b, u), DisruptorStagesVariant::formula),
            new Family("pekko-blocking", false, "Pekko typed actors, a non-blocking actor per request; request thread waits for the reply",
                    NONE, (b, u, n) -> new PekkoVariant(b, u, true), d -> FrameworksUseCase.overlapping(d, PekkoVariant.HOW)),
            new Family("pekko-async", false, "Pekko typed actors, ask pattern; the ask's future is the response (suspended)",
                    NONE, (b, u, n) -> new PekkoVariant(b, u, false), d -> FrameworksUseCase.overlapping(d, PekkoVariant.HOW)),
            new Family("virtual", false, "a virtual thread per request, the four blocking calls on virtual threads; merge on the request's thread",
                    NONE, (b, u, n) -> new VirtualRequestVariant(b, u, false), d -> VirtualRequestVariant.formula(false, d)),
            new Family("structured", false, "a virtual thread per request forking the four calls in a StructuredTaskScope",
                    StructuredConcurrency.unavailableReason(), (b, u, n) -> new VirtualRequestVariant(b, u, true), d -> VirtualRequestVariant.formula(true, d)));

    /**
     * The article's own stack: Tomcat 11.0.14 with Jersey 3.1.11, the blocking variants as JAX-RS resources on
     * Tomcat's request threads and {@code cf-suspended} with a suspended {@code AsyncResponse}; each named
     * {@code jaxrs-} and its in-process counterpart, whose code it runs, and called over HTTP on 127.0.0.1.
     */
    private static final List<Family> SERVLET = List.of(
            inProcess("sequential").onTomcat("the four calls one after another on Tomcat's request thread"),
            inProcess("invokeall").onTomcat("invokeAll on N I/O threads, merge on Tomcat's request thread"),
            inProcess("supplyasync").onTomcat("supplyAsync on N I/O threads, allOf().get() on Tomcat's request thread"),
            inProcess("cf-suspended").onTomcat("@Suspended AsyncResponse resumed from thenCombineAsync on N I/O threads"));

    /** The in-process family of that name, whose code a {@code jaxrs-} resource runs. */
    private static Family inProcess(String family) {
        return IN_PROCESS.stream().filter(f -> f.family().equals(family)).findFirst().orElseThrow();
    }

    static {
        // Reactor and Pekko log through SLF4J when it is present; without a provider SLF4J warns on stderr once.
        // Keep that warning out of the report (an explicit setting wins).
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }

    private FrameworkVariants() {}

    /**
     * The variants whose names, or the names {@code run --model} takes ({@link #runName}), start with one of
     * {@code prefixes}, in order; all of them when it is empty.
     */
    public static List<Variant> only(List<Variant> variants, List<String> prefixes) {
        if (prefixes.isEmpty()) return variants;
        return variants.stream().filter(v -> prefixes.stream().anyMatch(p -> v.name().startsWith(p) || runName(v.name()).startsWith(p))).toList();
    }

    /** Every in-process variant, with the I/O pools sized {@code ioPoolSize} where the article had a pool. */
    public static List<Variant> all(int ioPoolSize) { return sized(IN_PROCESS, ioPoolSize); }

    /** The {@code jaxrs-*} variants: the article's own stack, see {@link TomcatJerseyVariant}. */
    public static List<Variant> servlet(int ioPoolSize) { return sized(SERVLET, ioPoolSize); }

    private static List<Variant> sized(List<Family> families, int ioPoolSize) {
        if (ioPoolSize < MIN_POOL) throw new IllegalArgumentException("the I/O pool needs at least " + MIN_POOL + " threads, got " + ioPoolSize);
        return families.stream().map(f -> f.sized(ioPoolSize)).toList();
    }

    /** The variant of that name among {@link #all(int)} and {@link #servlet(int)}; throws naming the known ones otherwise. */
    public static Variant named(String name, int ioPoolSize) {
        List<Variant> known = Stream.concat(all(ioPoolSize).stream(), servlet(ioPoolSize).stream()).toList();
        return known.stream().filter(v -> v.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown variant '" + name + "'"
                        + dev.blocklab.Names.didYouMean(name, known.stream().map(Variant::name).toList()) + " (known: "
                        + known.stream().map(Variant::name).toList() + ")"));
    }

    /**
     * Every variant, in process then on Tomcat, as registry entries: the pool size is the size after the colon
     * ({@code invokeall:16}), each instance gets its own {@link FrameworksUseCase} of the article's sizes, and a
     * variant whose name an engine model already has is registered with the prefix {@value #CLASH_PREFIX}
     * ({@code frameworks-virtual}).
     */
    public static List<ModelEntry> entries() {
        return Stream.concat(IN_PROCESS.stream(), SERVLET.stream()).map(Family::entry).toList();
    }

    /**
     * The name {@code run --model} takes for the variant reported as {@code variantName}: the same, or with the
     * prefix {@value #CLASH_PREFIX} when an engine model has its family's name ({@code virtual} is the variant
     * {@code frameworks-virtual}; {@code run --model virtual} is the engine model). Reports print this name.
     */
    public static String runName(String variantName) {
        String family = variantName.contains(":") ? variantName.substring(0, variantName.indexOf(':')) : variantName;
        return clashes(family) ? CLASH_PREFIX + variantName : variantName;
    }

    private static boolean clashes(String family) {
        return dev.blocklab.model.Models.catalog().stream().anyMatch(m -> m.family().equals(family));
    }
}
