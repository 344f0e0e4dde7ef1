package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Model;
import dev.blocklab.preview.StructuredConcurrency;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The one registry of the frameworks comparison's variants, in the order reports list them. Every variant is a
 * {@link Model} over any {@link Backend} and runs {@link FrameworksUseCase}'s request; creating one may start
 * threads (and, for Pekko, an actor system), so close what you create.
 */
public final class FrameworkVariants {
    /** The article's I/O pool: 16 threads at 200 ms, 24 at 400 ms. */
    public static final int ARTICLE_POOL_200MS = 16;
    public static final int ARTICLE_POOL_400MS = 24;

    /**
     * One variant.
     *
     * @param name        the name in reports, pool size included where it has one (e.g. {@code invokeall:16})
     * @param description one line: how it runs the request, where the merge runs
     * @param unavailable why it cannot run on this JVM (its library missing or failing to load), or empty
     */
    public record Variant(String name, String description, Optional<String> unavailable,
                          BiFunction<Backend, FrameworksUseCase, Model> factory) {
        /** Creates the variant; throws {@link UnsupportedOperationException} when it is unavailable. */
        public Model create(Backend backend, FrameworksUseCase useCase) {
            if (unavailable.isPresent())
                throw new UnsupportedOperationException("variant '" + name + "' is unavailable: " + unavailable.get());
            return factory.apply(backend, useCase);
        }
    }

    static {
        // Reactor and Pekko log through SLF4J when it is present; without a provider SLF4J warns on stderr once.
        // Keep that warning out of the report (an explicit setting wins).
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }

    private FrameworkVariants() {}

    /** The variants whose names start with one of {@code prefixes}, in order; all of them when it is empty. */
    public static List<Variant> only(List<Variant> variants, List<String> prefixes) {
        if (prefixes.isEmpty()) return variants;
        return variants.stream().filter(v -> prefixes.stream().anyMatch(v.name()::startsWith)).toList();
    }

    /** Every variant, with the I/O pools sized {@code ioPoolSize} where the article had a pool. */
    public static List<Variant> all(int ioPoolSize) {
        if (ioPoolSize < 4) throw new IllegalArgumentException("the I/O pool needs at least 4 threads, got " + ioPoolSize);
        Optional<String> none = Optional.empty();
        Optional<String> rx = missing("io.reactivex.rxjava3.core.Single", "RxJava 3");
        Optional<String> reactor = missing("reactor.core.publisher.Mono", "Project Reactor");
        Optional<String> disruptor = missing("com.lmax.disruptor.dsl.Disruptor", "LMAX Disruptor");
        Optional<String> pekko = missing("org.apache.pekko.actor.typed.ActorSystem", "Apache Pekko");
        Optional<String> vertx = missing("io.vertx.core.Vertx", "Vert.x");
        int n = ioPoolSize;
        return List.of(
                new Variant("sequential", "the four calls one after another on the request thread, which merges", none,
                        SequentialVariant::new),
                new Variant("invokeall:" + n, "ExecutorService.invokeAll of the four blocking calls on " + n + " I/O threads; merge on the request thread",
                        none, (b, u) -> new InvokeAllVariant(b, u, n)),
                new Variant("supplyasync:" + n, "supplyAsync on " + n + " I/O threads, allOf().get(); merge on the request thread",
                        none, (b, u) -> new SupplyAsyncVariant(b, u, n)),
                new Variant("cf-suspended:" + n, "supplyAsync + thenCombineAsync on " + n + " I/O threads, response completed there (suspended)",
                        none, (b, u) -> new SuspendedFuturesVariant(b, u, n)),
                new Variant("rx-blocking:" + n, "RxJava 3 zip over blocking calls on " + n + " rx-io threads (the article's table)",
                        rx, (b, u) -> new RxBlockingVariant(b, u, n)),
                new Variant("rx-nonblocking", "RxJava 3 zip over non-blocking calls, merges on one rx-cpu thread per core",
                        rx, RxNonBlockingVariant::new),
                new Variant("reactor", "Reactor Mono.zip over non-blocking calls, merges on one reactor-cpu thread per core",
                        reactor, ReactorVariant::new),
                new Variant("vertx-event-loop", "Vert.x 5: each request on one event loop (one per core), non-blocking calls, both merges on that loop (blocking it for their CPU time)",
                        vertx, EventLoopVariant::new),
                new Variant("disruptor-latch", "Disruptor 4, calls in parallel (non-blocking), merge handlers; request thread waits",
                        disruptor, (b, u) -> new DisruptorVariant(b, u, true)),
                new Variant("disruptor-async", "Disruptor 4, calls in parallel (non-blocking), merge handlers; response suspended",
                        disruptor, (b, u) -> new DisruptorVariant(b, u, false)),
                new Variant("disruptor-stages", "the original's wiring: chained stages of 2 blocking handlers, calls one after another; request thread waits",
                        disruptor, DisruptorStagesVariant::new),
                new Variant("pekko-blocking", "Pekko typed actors, a non-blocking actor per request; request thread waits for the reply",
                        pekko, (b, u) -> new PekkoVariant(b, u, true)),
                new Variant("pekko-async", "Pekko typed actors, ask pattern; the ask's future is the response (suspended)",
                        pekko, (b, u) -> new PekkoVariant(b, u, false)),
                new Variant("virtual", "a virtual thread per request, the four blocking calls on virtual threads; merge on the request's thread",
                        none, VirtualThreadsVariant::new),
                new Variant("structured", "a virtual thread per request forking the four calls in a StructuredTaskScope",
                        StructuredConcurrency.unavailableReason(), StructuredVariant::new));
    }

    /**
     * The article's own stack: Tomcat 11.0.14 with Jersey 3.1.11, the blocking variants as JAX-RS resources on
     * Tomcat's request threads and {@code cf-suspended} with a suspended {@code AsyncResponse}; each named
     * {@code jaxrs-} and its in-process counterpart, whose code it runs, and called over HTTP on 127.0.0.1.
     */
    public static List<Variant> servlet(int ioPoolSize) {
        Optional<String> stack = missing("org.apache.catalina.startup.Tomcat", "Tomcat embed")
                .or(() -> missing("org.glassfish.jersey.servlet.ServletContainer", "Jersey"));
        int n = ioPoolSize;
        String on = " in Tomcat 11 + Jersey 3 over HTTP";
        return List.of(
                new Variant("jaxrs-sequential", "the four calls one after another on Tomcat's request thread" + on, stack,
                        (b, u) -> new TomcatJerseyVariant(b, u, "sequential", 0)),
                new Variant("jaxrs-invokeall:" + n, "invokeAll on " + n + " I/O threads, merge on Tomcat's request thread" + on, stack,
                        (b, u) -> new TomcatJerseyVariant(b, u, "invokeall", n)),
                new Variant("jaxrs-supplyasync:" + n, "supplyAsync on " + n + " I/O threads, allOf().get() on Tomcat's request thread" + on, stack,
                        (b, u) -> new TomcatJerseyVariant(b, u, "supplyasync", n)),
                new Variant("jaxrs-cf-suspended:" + n, "@Suspended AsyncResponse resumed from thenCombineAsync on " + n + " I/O threads" + on, stack,
                        (b, u) -> new TomcatJerseyVariant(b, u, "cf-suspended", n)));
    }

    /** The variant of that name among {@link #all(int)} and {@link #servlet(int)}; throws naming the known ones otherwise. */
    public static Variant named(String name, int ioPoolSize) {
        List<Variant> known = java.util.stream.Stream.concat(all(ioPoolSize).stream(), servlet(ioPoolSize).stream()).toList();
        return known.stream().filter(v -> v.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown variant '" + name + "' (known: "
                        + known.stream().map(Variant::name).toList() + ")"));
    }

    private static Optional<String> missing(String className, String library) {
        try {
            Class.forName(className, false, FrameworkVariants.class.getClassLoader());
            return Optional.empty();
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.of(library + " is not on the class path (" + e.getClass().getSimpleName() + ")");
        }
    }
}
