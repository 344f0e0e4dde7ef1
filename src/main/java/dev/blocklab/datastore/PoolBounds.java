package dev.blocklab.datastore;

import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Graph;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The connection pools a workload's requests wait on when its {@code sql:} and {@code redis:} steps go to real
 * servers, as each model meets them: every model shares the PostgreSQL pool; a blocking model takes one of the
 * Jedis pool's connections per Redis step, a non-blocking one shares Lettuce's single connection, on which only
 * the commands that wait on the server hold up the others ({@link PoolPrediction#forRedis}). Each bounds a
 * model's prediction by Little's law, whatever its threads allow.
 *
 * @param graph    the workload's graph
 * @param settings which servers, and their pools' sizes
 */
public record PoolBounds(Graph graph, DatastoreSettings settings) {

    /** A pool a model's requests wait on, named for reports. */
    public record Bound(String what, PoolPrediction pool) {}

    /** The pools {@code model}'s requests hold a connection of for a measurable time. */
    public List<Bound> of(ModelSpec model) {
        List<Bound> bounds = new ArrayList<>();
        if (settings.postgres()) bounds.add(new Bound("db pool", PoolPrediction.forSql(graph, settings.dbPoolSize())));
        if (settings.redis()) bounds.add(model.callsNonBlocking()
                ? new Bound("Lettuce's one connection", PoolPrediction.forRedis(graph, 1, true))
                : new Bound("Jedis pool", PoolPrediction.forRedis(graph, settings.redisPoolSize(), false)));
        bounds.removeIf(b -> b.pool().holdNanos() == 0);
        return bounds;
    }

    /** {@code instance} of {@code model}, its prediction bound by each of the pools. */
    public Model wrap(Model instance, ModelSpec model) {
        Model bound = instance;
        for (Bound b : of(model)) bound = new PoolBoundModel(bound, b.pool(), b.what());
        return bound;
    }

    /** {@code model}'s own prediction {@code own} for {@code demand}, bound by each of the pools. */
    public Prediction bound(Prediction own, Demand demand, ModelSpec model) {
        Prediction p = own;
        for (Bound b : of(model)) p = PoolBoundModel.bound(p, demand, b.pool(), b.what());
        return p;
    }

    /** The lowest of the pools' capacities for {@code model}, with its basis; empty where no pool holds a request. */
    public java.util.Optional<Bound> tightest(ModelSpec model) {
        return of(model).stream().min(java.util.Comparator.comparingDouble(b -> b.pool().maxRequestsPerSecond()));
    }

    /** {@code db pool: 10 connections / 100 ms held per request = 100 req/s}. */
    public static String basis(Bound b) {
        return String.format(Locale.ROOT, "%s: %s", b.what(), b.pool().basis());
    }
}
