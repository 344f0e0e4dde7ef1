package dev.blocklab.datastore;

import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;

/**
 * A model whose prediction also knows the connection pool: a batch of {@code n} requests through a pool of
 * {@code N} connections, each request holding one for {@code hold}, takes at least {@code ceil(n / N) x hold}
 * (plus the batch's CPU work, as {@link Demand#waves} counts it for thread pools),
 * whatever the model's own formula says about threads. The larger of the two is the prediction; the model itself
 * runs unchanged.
 */
public record PoolBoundModel(Model model, PoolPrediction pool, String what) implements Model {

    /** A model bound by the PostgreSQL pool, named {@code pool} in its basis. */
    public PoolBoundModel(Model model, PoolPrediction pool) { this(model, pool, "pool"); }

    @Override public String name() { return model.name(); }

    @Override public CompletableFuture<Object> submit(Request request) { return model.submit(request); }

    /** The model's own callback form, which may cost less than a dependent stage per request. */
    @Override public void submit(Request request, java.util.function.BiConsumer<Object, Throwable> onDone) { model.submit(request, onDone); }

    @Override public Prediction predict(Demand demand) { return bound(model.predict(demand), demand, pool, what); }

    @Override public boolean failsFast() { return model.failsFast(); }

    /** The larger of a model's own prediction {@code own} for {@code demand} and the waves the pool allows. */
    public static Prediction bound(Prediction own, Demand demand, PoolPrediction pool) { return bound(own, demand, pool, "pool"); }

    /** As {@link #bound(Prediction, Demand, PoolPrediction)}, the pool named {@code what} in the basis. */
    public static Prediction bound(Prediction own, Demand demand, PoolPrediction pool, String what) {
        if (pool.holdNanos() == 0) return own;
        long poolNanos = demand.waves(pool.connections(), pool.holdNanos());
        if (poolNanos <= own.nanos()) return own;
        return new Prediction(poolNanos, String.format(java.util.Locale.ROOT, "%s: ceil(%d / %d connection%s) x %.0f ms held (the model alone: %s)",
                what, demand.requests(), pool.connections(), pool.connections() == 1 ? "" : "s", pool.holdNanos() / 1e6, own.basis()), own.path());
    }

    @Override public void close() { model.close(); }
}
