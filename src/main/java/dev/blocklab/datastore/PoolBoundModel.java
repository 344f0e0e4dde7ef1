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
public record PoolBoundModel(Model model, PoolPrediction pool) implements Model {

    @Override public String name() { return model.name(); }

    @Override public CompletableFuture<Object> submit(Request request) { return model.submit(request); }

    @Override public Prediction predict(Demand demand) { return bound(model.predict(demand), demand, pool); }

    /** The larger of a model's own prediction {@code own} for {@code demand} and the waves the pool allows. */
    public static Prediction bound(Prediction own, Demand demand, PoolPrediction pool) {
        if (pool.holdNanos() == 0) return own;
        long poolNanos = demand.waves(pool.connections(), pool.holdNanos());
        if (poolNanos <= own.nanos()) return own;
        return new Prediction(poolNanos, String.format(java.util.Locale.ROOT, "pool: ceil(%d / %d connections) x %.0f ms held (the model alone: %s)",
                demand.requests(), pool.connections(), pool.holdNanos() / 1e6, own.basis()), own.path());
    }

    @Override public void close() { model.close(); }
}
