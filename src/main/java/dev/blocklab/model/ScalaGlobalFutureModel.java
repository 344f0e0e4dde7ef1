package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;
import scala.concurrent.ExecutionContext;
import scala.concurrent.ExecutionContextExecutorService;
import scala.concurrent.Future$;
import scala.concurrent.impl.ExecutionContextImpl;
import scala.jdk.javaapi.FutureConverters;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * Seed 003 on the real library: each request is one {@code scala.concurrent.Future { ... }} on Scala's default
 * execution context, its calls plain blocking ({@code scala-global}) or each wrapped in
 * {@code scala.concurrent.blocking { }} ({@code scala-global-blocking}). Called from Java against scala-library
 * alone: {@code Future$.MODULE$.apply(body, ec)} and {@code scala.concurrent.package$.MODULE$.blocking(body)}.
 *
 * <p>The pool is built by the same code as {@code ExecutionContext.global()}
 * ({@code ExecutionContext.fromExecutorService(null)} calls the global's factory, reading the same system
 * properties), but a fresh one per run: the global itself is a process-wide singleton that cannot be shut
 * down, and its warm threads would carry from one run to the next. Its configuration, exactly as the global's:
 * parallelism {@code min(max(minThreads, numThreads), maxThreads)} with {@code numThreads} and
 * {@code maxThreads} defaulting to the cores ({@code -Dscala.concurrent.context.numThreads=16} etc. change it),
 * and at most {@code scala.concurrent.context.maxExtraThreads} (default 256) calls inside {@code blocking} at
 * once get a compensating thread; past that cap {@code blocking} runs its body unmanaged.
 *
 * <p>Scala futures cannot be cancelled: cancelling the returned future (or failing it with a timeout)
 * interrupts the request's thread while it runs the request ({@link Tasks.Runner}); {@link #close} interrupts
 * the pool's threads.
 */
final class ScalaGlobalFutureModel implements Model {
    private final Backend backend;
    private final boolean blocking;
    /** How a request's calls (and retry backoffs) block: inside {@code blocking { }}, or plainly. */
    private final DirectStyle.BlockingCaller caller;
    private final ExecutionContextExecutorService executionContext;
    private final int parallelism;
    private final int maxBlockers;

    ScalaGlobalFutureModel(Backend backend, boolean blocking) {
        this.backend = backend;
        this.blocking = blocking;
        this.caller = blocking
                ? DirectStyle.BlockingCaller.within(body -> scala.concurrent.package$.MODULE$.blocking(() -> Tasks.unchecked(body)), backend::callBlocking)
                : backend::callBlocking;
        this.executionContext = ExecutionContext.fromExecutorService(null);
        // like ExecutionContext.global(), a ForkJoinPool that is its own ExecutionContext
        ForkJoinPool pool = (ForkJoinPool) executionContext;
        this.parallelism = pool.getParallelism();
        this.maxBlockers = maxBlockers(pool);
    }

    private static int maxBlockers(ForkJoinPool pool) {
        return ((ExecutionContextImpl.DefaultThreadFactory) pool.getFactory()).maxBlockers();
    }

    /**
     * The prediction for a pool configured as the global one, read from a fresh pool that is then shut down (a
     * {@code ForkJoinPool} starts no thread before its first task).
     */
    static Prediction formula(boolean blocking, Demand d) {
        ExecutionContextExecutorService fresh = ExecutionContext.fromExecutorService(null);
        try {
            ForkJoinPool pool = (ForkJoinPool) fresh;
            return formula(blocking, pool.getParallelism(), maxBlockers(pool), d);
        } finally {
            fresh.shutdownNow();
        }
    }

    @Override public String name() { return blocking ? "scala-global-blocking" : "scala-global"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        Tasks.Runner runner = new Tasks.Runner();
        scala.concurrent.Future<Object> future = Future$.MODULE$.apply(
                () -> Tasks.unchecked(() -> runner.run(() -> DirectStyle.evaluate(request, caller))), executionContext);
        CompletableFuture<Object> result = new CompletableFuture<>();
        // a Scala future cannot be cancelled: a request that ended from outside interrupts its thread instead
        result.whenComplete((v, e) -> { if (e != null) runner.interrupt(); });
        FutureConverters.asJava(future).whenComplete((value, failure) -> {
            if (failure != null) result.completeExceptionally(failure);
            else result.complete(value);
        });
        return result;
    }

    @Override public Prediction predict(Demand d) {
        return formula(blocking, parallelism, maxBlockers, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(boolean blocking, int parallelism, int maxBlockers, Demand d) {
        if (!blocking) {
            return new Prediction(d.scheduleNanos(parallelism, Path.SERIAL),
                    d.scheduleText(parallelism + " (Scala's parallelism, " + parallelismSource() + ")", Path.SERIAL), Path.SERIAL);
        }
        return new Prediction(d.scheduleNanos(parallelism + maxBlockers, Path.SERIAL),
                d.scheduleText("(" + parallelism + " + " + maxBlockers + " extra threads for blocking)", Path.SERIAL), Path.SERIAL);
    }

    /**
     * Where Scala's global context takes its parallelism from: {@code from the cores}, or the system property that
     * sets it ({@code -Dscala.concurrent.context.numThreads=16} in BLOCKLAB_JAVA_OPTS, as the article's 16).
     */
    static String parallelismSource() {
        String set = System.getProperty("scala.concurrent.context.numThreads");
        return set == null ? "from the cores" : "from -Dscala.concurrent.context.numThreads=" + set;
    }

    /** The pool's parallelism, as Scala computed it from the cores and its system properties. */
    int parallelism() { return parallelism; }

    /** How many calls inside {@code blocking} get a compensating thread at once. */
    int maxBlockers() { return maxBlockers; }

    @Override public void close() { Tasks.shutdown(executionContext); }
}
