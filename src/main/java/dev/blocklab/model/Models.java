package dev.blocklab.model;

import dev.blocklab.preview.StructuredConcurrency;

import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.stream.Collectors;

/** The one place where models are registered and their names parsed. */
public final class Models {

    /**
     * One registered model.
     *
     * @param family      the name before the colon
     * @param syntax      how to write it, e.g. {@code fixed:N}
     * @param description one line for {@code blocklab models}
     * @param needsSize   true when the name takes a positive thread count after a colon
     * @param unavailable why the model cannot run on this JVM, or empty
     */
    public record Info(String family, String syntax, String description, boolean needsSize,
                       Optional<String> unavailable,
                       BiFunction<ModelContext, Integer, Model> factory) {}

    private static final List<Info> CATALOG = List.of(
            info("sequential", "sequential", "everything on the caller's thread, blocking, one request at a time",
                    false, (c, n) -> new SequentialModel(c.backend())),
            info("fixed", "fixed:N", "blocking requests on a fixed pool of N platform threads",
                    true, (c, n) -> new FixedThreadPoolModel(c.backend(), n)),
            info("cached", "cached", "blocking requests on a cached pool: a platform thread per concurrent request",
                    false, (c, n) -> new CachedThreadPoolModel(c.backend())),
            info("forkjoin", "forkjoin:N", "ForkJoinPool of N, plain blocking (Scala's global context without blocking)",
                    true, (c, n) -> new ForkJoinModel(c.backend(), n)),
            info("forkjoin-managed", "forkjoin-managed:N", "ForkJoinPool of N, blocking through ManagedBlocker "
                            + "(Scala's blocking { }); spare threads up to --spare-threads (default 256)",
                    true, (c, n) -> new ManagedForkJoinModel(c.backend(), n, c.managedSpareThreads())),
            info("scala-global", "scala-global", "scala.concurrent.Future on Scala's global execution context "
                            + "(scala-library 2.13.16; threads = cores), plain blocking calls",
                    false, (c, n) -> new ScalaGlobalFutureModel(c.backend(), false)),
            info("scala-global-blocking", "scala-global-blocking", "the same with each call in scala.concurrent.blocking { } "
                            + "(up to scala.concurrent.context.maxExtraThreads, default 256, extra threads)",
                    false, (c, n) -> new ScalaGlobalFutureModel(c.backend(), true)),
            info("cf-blocking", "cf-blocking:N", "CompletableFuture.supplyAsync over blocking calls on a pool of N",
                    true, (c, n) -> new CfBlockingModel(c.backend(), n)),
            info("cf-nonblocking", "cf-nonblocking:N", "thenCompose/thenCombine over timer-completed futures, callbacks on N threads",
                    true, (c, n) -> new CfNonBlockingModel(c.backend(), n)),
            info("virtual", "virtual", "a virtual thread per request, blocking code",
                    false, (c, n) -> new VirtualThreadPerTaskModel(c.backend())),
            new Info("structured", "structured", "StructuredTaskScope on virtual threads: independent calls forked and joined",
                    false, StructuredConcurrency.unavailableReason(), (c, n) -> new StructuredModel(c.backend())));

    /** {@code ForkJoinPool}'s own bound on parallelism (its {@code MAX_CAP}). */
    static final int FORK_JOIN_MAX_PARALLELISM = 0x7fff;

    private Models() {}

    private static Info info(String family, String syntax, String description, boolean needsSize,
                             BiFunction<ModelContext, Integer, Model> factory) {
        return new Info(family, syntax, description, needsSize, Optional.empty(), factory);
    }

    /** Every registered model, in the order {@code blocklab models} lists them. */
    public static List<Info> catalog() { return CATALOG; }

    /**
     * Checks a model name such as {@code fixed:8} without creating threads.
     *
     * @throws IllegalArgumentException naming the problem in one line
     */
    public static Info parse(String spec) {
        String family = spec.contains(":") ? spec.substring(0, spec.indexOf(':')) : spec;
        Info info = CATALOG.stream().filter(i -> i.family().equals(family)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown model '" + spec + "' (known: "
                        + CATALOG.stream().map(Info::syntax).collect(Collectors.joining(", ")) + ")"));
        sizeOf(info, spec);
        return info;
    }

    /**
     * Creates a model from its name.
     *
     * @throws IllegalArgumentException for an unknown or malformed name
     * @throws UnsupportedOperationException when the model cannot run on this JVM
     */
    public static Model create(String spec, ModelContext context) {
        Info info = parse(spec);
        if (info.unavailable().isPresent())
            throw new UnsupportedOperationException("model '" + spec + "' is unavailable: " + info.unavailable().get());
        return info.factory().apply(context, sizeOf(info, spec));
    }

    private static int sizeOf(Info info, String spec) {
        int colon = spec.indexOf(':');
        if (!info.needsSize()) {
            if (colon >= 0) throw new IllegalArgumentException("model '" + info.family() + "' takes no size: write '" + info.syntax() + "'");
            return 0;
        }
        if (colon < 0) throw new IllegalArgumentException("model '" + spec + "' needs a thread count: write '" + info.syntax() + "', e.g. " + info.family() + ":8");
        String size = spec.substring(colon + 1);
        int n;
        try {
            n = Integer.parseInt(size);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("model '" + spec + "': '" + size + "' is not a whole number of threads");
        }
        if (n < 1) throw new IllegalArgumentException("model '" + spec + "': the pool needs at least 1 thread, got " + n);
        if (n > 100_000) throw new IllegalArgumentException("model '" + spec + "': at most 100000 threads, got " + n);
        if (info.family().startsWith("forkjoin") && n > FORK_JOIN_MAX_PARALLELISM)
            throw new IllegalArgumentException("model '" + spec + "': a ForkJoinPool runs at most "
                    + FORK_JOIN_MAX_PARALLELISM + " threads, got " + n);
        return n;
    }
}
