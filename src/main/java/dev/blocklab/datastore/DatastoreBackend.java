package dev.blocklab.datastore;

import dev.blocklab.backend.Backend;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.backend.Vertxes;
import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Operation;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link Backend} port over real servers, for one run: a call with a SQL operation goes to PostgreSQL, one
 * with a Redis operation to Redis, and a call without an operation to a {@link SimulatedBackend}, so a workload may
 * mix them. The blocking form uses the blocking clients (pgjdbc behind HikariCP, Jedis), the non-blocking form the
 * non-blocking ones (Vert.x PostgreSQL client, or R2DBC with {@code --pg-async-client r2dbc}; Lettuce): a model gets the client that fits how it calls. A call to
 * a server the lab was not given fails with that named. An injected failure ({@code failure:}) is raised without
 * calling the server.
 */
public final class DatastoreBackend implements Backend {
    private final SimulatedBackend simulated = new SimulatedBackend();
    private final PostgresClients postgres;
    private final RedisClients redis;
    private final LongAdder calls = new LongAdder();
    private volatile Vertx vertx;

    /**
     * @param postgres the PostgreSQL server's address, or null when there is none
     * @param redis    the Redis server's address, or null when there is none
     */
    public DatastoreBackend(DatastoreSettings settings, DatastoreSettings.PostgresAddress postgres,
                            DatastoreSettings.RedisAddress redis) {
        this.postgres = postgres == null ? null : new PostgresClients(postgres, settings, this::vertx);
        this.redis = redis == null ? null : new RedisClients(redis, settings);
    }

    @Override public String name() { return "datastore"; }

    @Override public Object callBlocking(CallInvocation call) throws Exception {
        calls.increment();
        return switch (call.operation()) {
            case null -> simulated.callBlocking(call);
            case Operation.Sql sql -> {
                if (call.failure() != null) throw call.newFailure();
                yield postgres(call).queryBlocking(sql, call.row());
            }
            case Operation.Redis command -> {
                if (call.failure() != null) throw call.newFailure();
                yield redis(call).commandBlocking(command, call.row());
            }
        };
    }

    @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
        calls.increment();
        try {
            return switch (call.operation()) {
                case null -> simulated.callAsync(call);
                case Operation.Sql sql -> call.failure() != null ? CompletableFuture.failedFuture(call.newFailure())
                        : postgres(call).queryAsync(sql, call.row());
                case Operation.Redis command -> call.failure() != null ? CompletableFuture.failedFuture(call.newFailure())
                        : redis(call).commandAsync(command, call.row());
            };
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override public long callsStarted() { return calls.sum(); }

    /**
     * Opens every connection of every pool now (both PostgreSQL clients, the Jedis pool and the Lettuce
     * connection), waiting up to the pool timeout; a server that is down is not an error here (calls will fail).
     * Returns what could not be opened, as one line, when a PostgreSQL pool fell short.
     */
    public java.util.Optional<String> fillPools() {
        java.util.Optional<String> problem = postgres != null ? postgres.fill() : java.util.Optional.empty();
        if (redis != null) redis.fill();
        return problem;
    }

    /** Each client's pool figures so far (only the clients this run used): PostgreSQL's, then Redis's. */
    @Override public List<PoolStats> poolStats() {
        List<PoolStats> stats = new ArrayList<>();
        if (postgres != null) stats.addAll(postgres.stats());
        if (redis != null) stats.addAll(redis.stats());
        return stats;
    }

    private PostgresClients postgres(CallInvocation call) {
        if (postgres == null)
            throw new IllegalStateException("step '" + call.call() + "' is a SQL step: run it with --backend postgres (or --postgres-url URL)");
        return postgres;
    }

    private RedisClients redis(CallInvocation call) {
        if (redis == null)
            throw new IllegalStateException("step '" + call.call() + "' is a Redis step: run it with --backend redis (or --redis-url URL)");
        return redis;
    }

    private Vertx vertx() {
        Vertx v = vertx;
        if (v != null) return v;
        synchronized (this) {
            if (vertx == null) {
                vertx = Vertxes.create(new io.vertx.core.VertxOptions());
            }
            return vertx;
        }
    }

    @Override public void close() {
        try {
            if (postgres != null) postgres.close();
        } finally {
            try {
                if (redis != null) redis.close();
            } finally {
                simulated.close();
                Vertx v;
                synchronized (this) { v = vertx; }
                if (v != null) Vertxes.awaitClose(v.close(), 10, "closing the datastore's Vert.x instance");
            }
        }
    }
}
