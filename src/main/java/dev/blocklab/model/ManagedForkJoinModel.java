package dev.blocklab.model;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Blocking requests on a ForkJoinPool of N workers whose blocking calls go through
 * {@link ForkJoinPool.ManagedBlocker} (Scala's {@code blocking { }}): before a worker blocks, the pool starts a
 * spare thread so that N workers stay runnable, up to {@code spareThreads} extra threads. At the cap the pool's
 * saturate rule lets the call block without compensation, so further requests queue as on a plain pool of
 * N + spares threads (Scala's global context behaves the same way past its 256 extra threads).
 */
final class ManagedForkJoinModel extends PooledModel {
    private final int spareThreads;
    /** Calls and retry backoffs, each inside a ManagedBlocker. */
    private final DirectStyle.BlockingCaller caller;

    ManagedForkJoinModel(Backend backend, int parallelism, int spareThreads) {
        super(backend, "forkjoin-managed", parallelism, new ForkJoinPool(parallelism, ForkJoinPool.defaultForkJoinWorkerThreadFactory,
                null, false, 0, parallelism + spareThreads, 1, p -> true, 60, TimeUnit.SECONDS));
        this.spareThreads = spareThreads;
        this.caller = DirectStyle.BlockingCaller.within(ManagedForkJoinModel::managed, backend::callBlocking);
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(pool, () -> DirectStyle.evaluate(request, caller));
    }

    /** Runs {@code body} inside {@link ForkJoinPool#managedBlock}, returning its value or throwing its failure. */
    private static Object managed(Callable<Object> body) throws Exception {
        var blocker = new Blocker(body);
        ForkJoinPool.managedBlock(blocker);
        return blocker.result();
    }

    @Override public Prediction predict(Demand d) {
        return formula(threads, spareThreads, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int threads, int spareThreads, Demand d) {
        int max = threads + spareThreads;
        return new Prediction(d.scheduleNanos(max, Path.SERIAL),
                d.scheduleText("(" + threads + " + " + spareThreads + " spares)", Path.SERIAL), Path.SERIAL);
    }

    /** Runs one blocking body inside {@link ForkJoinPool#managedBlock}, keeping its value or failure. */
    private static final class Blocker implements ForkJoinPool.ManagedBlocker {
        private final Callable<Object> body;
        private boolean done;
        private Object value;
        private Exception failure;

        Blocker(Callable<Object> body) { this.body = body; }

        @Override public boolean block() throws InterruptedException {
            try {
                value = body.call();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                failure = e;
            }
            done = true;
            return true;
        }

        @Override public boolean isReleasable() { return done; }

        Object result() throws Exception {
            if (failure != null) throw failure;
            return value;
        }
    }
}
