package dev.blocklab.datastore;

import dev.blocklab.datastore.DatastoreSettings.PostgresAddress;
import dev.blocklab.workload.Operation;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.Statement;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The R2DBC form of the non-blocking PostgreSQL client ({@code --pg-async-client r2dbc}): r2dbc-postgresql behind
 * r2dbc-pool, {@code dbPoolSize} connections, a call that gets none within the pool timeout failing as the other
 * pools' do. It prepares the same statement ({@code $1}), binds the same row and reduces the answer the same way
 * ({@link PostgresClients#value}); the future completes on a Reactor Netty event loop.
 */
final class R2dbcClient implements AutoCloseable {
    static final String CLIENT = "r2dbc";

    private final ConnectionPool pool;
    private final PoolGauge gauge;
    private final DatastoreSettings settings;

    R2dbcClient(PostgresAddress address, DatastoreSettings settings, PoolGauge gauge) {
        this.gauge = gauge;
        this.settings = settings;
        int size = settings.dbPoolSize();
        var connect = PostgresqlConnectionConfiguration.builder().host(address.host()).port(address.port())
                .database(address.database()).username(address.user()).password(address.password()).build();
        pool = new ConnectionPool(ConnectionPoolConfiguration.builder(new PostgresqlConnectionFactory(connect))
                .name("blocklab-r2dbc").initialSize(size).maxSize(size)
                .maxAcquireTime(Duration.ofNanos(settings.poolTimeoutNanos()))
                .build());   // acquireRetry stays 1: a pooled connection that fails its validation is replaced
    }

    /** Runs the statement on a pooled connection, timing the wait for it in the gauge. */
    CompletableFuture<Object> query(Operation.Sql sql, long row) {
        Mono<Connection> take = Mono.defer(() -> {
            long askedNanos = System.nanoTime();
            // r2dbc-pool's retry of a timed-out acquisition (acquireRetry 1) would wait maxAcquireTime twice:
            // --pool-timeout is the whole wait, as for HikariCP and Vert.x
            return pool.create().timeout(Duration.ofNanos(settings.poolTimeoutNanos()))
                    .doOnNext(c -> gauge.acquired(System.nanoTime() - askedNanos));
        }).onErrorMap(failure -> {
            NoConnection why = NoConnection.r2dbc(failure);
            gauge.noConnection(why);
            return new SQLTransientConnectionException(PostgresClients.noConnection(CLIENT, settings, why) + " ("
                    + failure.getClass().getSimpleName() + ": " + PostgresClients.stable(failure.getMessage()) + ")", failure);
        });
        return Mono.usingWhen(take, c -> execute(c, sql, row), c -> {
            gauge.released();   // before the connection goes back, so the gauge never counts more than the pool
            return c.close();
        }).toFuture();
    }

    private static Mono<Object> execute(Connection connection, Operation.Sql sql, long row) {
        Statement statement = connection.createStatement(sql.query());
        if (sql.usesRow()) statement.bind("$1", row);
        List<Object> firstColumn = new ArrayList<>();   // a row's first column each, null for a void one
        long[] updated = {0};
        return Flux.from(statement.execute())
                .concatMap(result -> result.flatMap(segment -> {
                    if (segment instanceof Result.RowSegment r) {
                        firstColumn.add(cell(r.row()));
                    } else if (segment instanceof Result.UpdateCount u) {
                        updated[0] += u.value();
                    } else if (segment instanceof Result.Message m) {
                        return Mono.error(m.exception());   // the server's error, as the other clients raise it
                    }
                    return Mono.empty();
                }))
                .then(Mono.fromSupplier(() -> firstColumn.isEmpty() ? (Object) updated[0] : PostgresClients.value(firstColumn)));
    }

    /** The row's first column; a {@code void} one (e.g. {@code pg_sleep}), which R2DBC has no codec for, as null. */
    private static Object cell(Row row) {
        if ("void".equals(row.getMetadata().getColumnMetadata(0).getType().getName())) return null;
        return row.get(0);
    }

    /**
     * Opens all {@code dbPoolSize} connections, waiting up to {@code waitNanos}; returns how many are open and,
     * when some are missing, why.
     */
    Filled fill(long waitNanos) {
        String cause = null;
        try {
            pool.warmup().block(Duration.ofNanos(Math.max(1, waitNanos)));
        } catch (RuntimeException e) {
            cause = String.valueOf(e.getMessage());
        }
        int open = pool.getMetrics().map(m -> m.idleSize() + m.acquiredSize()).orElse(-1);   // opened, not pending
        return new Filled(open, cause);
    }

    /** What {@link #fill} opened, and the first failure, or null. */
    record Filled(int open, String cause) {}

    @Override public void close() {
        pool.disposeLater().block(Duration.ofSeconds(10));
    }
}
