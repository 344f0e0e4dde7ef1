package dev.blocklab.datastore;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.blocklab.datastore.DatastoreSettings.PostgresAddress;
import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.Operation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The two PostgreSQL clients of one run, each behind its own pool of {@code dbPoolSize} connections, created on
 * first use or by {@link #fill()}, which every run's backend calls, so both pools are open during a run whichever
 * model runs (the embedded server's {@code max_connections} allows for both): pgjdbc behind HikariCP for blocking calls
 * (the calling thread waits for a connection, then for the answer), the Vert.x reactive client for non-blocking
 * calls (a waiting call is a queued callback; no thread waits), or instead R2DBC ({@link R2dbcClient}) where
 * {@code --pg-async-client r2dbc} chooses it. Both prepare the same statement, bind the same
 * row and reduce the answer the same way ({@link #value}).
 */
final class PostgresClients implements AutoCloseable {
    private final PostgresAddress address;
    private final DatastoreSettings settings;
    private final Supplier<Vertx> vertx;
    private final PoolGauge jdbcGauge;
    private final PoolGauge asyncGauge;
    private final OnFirstUse<HikariDataSource> hikari = new OnFirstUse<>(CLOSED, this::createHikari);
    private final OnFirstUse<Pool> pool = new OnFirstUse<>(CLOSED, this::createPool);
    private final OnFirstUse<R2dbcClient> r2dbc = new OnFirstUse<>(CLOSED, this::createR2dbc);
    private static final String CLOSED = "the PostgreSQL clients are closed";

    PostgresClients(PostgresAddress address, DatastoreSettings settings, Supplier<Vertx> vertx) {
        this.address = address;
        this.settings = settings;
        this.vertx = vertx;
        this.jdbcGauge = new PoolGauge("jdbc+hikari", settings.dbPoolSize());
        this.asyncGauge = new PoolGauge(r2dbc() ? R2dbcClient.CLIENT : "vertx-pg", settings.dbPoolSize());
    }

    /** The one place that chooses the non-blocking client: R2DBC where {@code --pg-async-client r2dbc}, else Vert.x. */
    private boolean r2dbc() { return settings.pgAsyncClient() == DatastoreSettings.PgAsyncClient.R2DBC; }

    /** Runs the statement through HikariCP and pgjdbc, holding the calling thread. */
    Object queryBlocking(Operation.Sql sql, long row) throws SQLException {
        HikariDataSource ds = hikari();
        Connection connection = jdbcGauge.acquire(ds::getConnection, NoConnection::hikari, (e, why) -> {
            // HikariCP's message carries live counters (waiting=123); one stable cause per kind of failure instead
            if (e instanceof SQLTransientConnectionException) throw new SQLTransientConnectionException(
                    noConnection("jdbc+hikari", settings, why) + (e.getCause() != null ? " (" + e.getCause().getClass().getSimpleName()
                            + ": " + stable(e.getCause().getMessage()) + ")" : ""), e);
        });
        try (PreparedStatement statement = connection.prepareStatement(sql.jdbcQuery())) {
            if (sql.usesRow()) statement.setLong(1, row);
            if (!statement.execute()) return (long) statement.getUpdateCount();
            List<Object> firstColumn = new ArrayList<>();
            try (ResultSet rs = statement.getResultSet()) {
                while (rs.next()) firstColumn.add(rs.getObject(1));
            }
            return value(firstColumn);
        } finally {
            jdbcGauge.released();   // before the connection goes back, so the gauge never counts more than the pool
            connection.close();
        }
    }

    /** Runs the statement through the chosen non-blocking client, R2DBC or Vert.x (on a Vert.x event loop). */
    CompletableFuture<Object> queryAsync(Operation.Sql sql, long row) {
        Pool p;
        try {
            if (r2dbc()) return r2dbc.get().query(sql, row);
            p = pool();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        long askedNanos = System.nanoTime();
        return p.getConnection().recover(failure -> {
            NoConnection why = NoConnection.vertx(failure);
            asyncGauge.noConnection(why);
            return Future.failedFuture(new SQLTransientConnectionException(noConnection("vertx-pg", settings, why) + " ("
                    + stable(failure.getMessage()) + ")", failure));
        }).compose(connection -> {
            asyncGauge.acquired(System.nanoTime() - askedNanos);
            return execute(connection, sql, row).eventually(() -> {
                asyncGauge.released();
                return connection.close();
            });
        }).toCompletionStage().toCompletableFuture();
    }

    private static Future<Object> execute(SqlConnection connection, Operation.Sql sql, long row) {
        var query = connection.preparedQuery(sql.query());
        Future<RowSet<Row>> rows = sql.usesRow() ? query.execute(Tuple.of(row)) : query.execute();
        return rows.map(set -> {
            if (set.columnsNames() == null || set.columnsNames().isEmpty()) return (Object) (long) set.rowCount();
            List<Object> firstColumn = new ArrayList<>();
            for (Row r : set) firstColumn.add(r.getValue(0));
            return value(firstColumn);
        });
    }

    /**
     * The answer both clients give: the first row's first column (a whole number as {@code Long}, anything else
     * as text), or the number of rows when there is none or it is empty (a {@code void} such as {@code pg_sleep}).
     */
    static Object value(List<Object> firstColumn) {
        if (firstColumn.isEmpty()) return 0L;
        Object v = firstColumn.getFirst();
        if (v == null || v.toString().isEmpty()) return (long) firstColumn.size();
        if (v instanceof Long || v instanceof Integer || v instanceof Short) return ((Number) v).longValue();
        return v.toString();
    }

    /**
     * Creates both pools and opens all their connections, waiting up to 30 s (a busy machine opens them slowly).
     * A server that is down or refuses some of them is not an error here (calls will fail and be counted); what
     * was not opened is returned as one line for the run's output, e.g. a server whose {@code max_connections} is
     * below the two pools' sum.
     */
    Optional<String> fill() {
        long waitNanos = Math.max(settings.poolTimeoutNanos(), TimeUnit.SECONDS.toNanos(30));
        long deadline = System.nanoTime() + waitNanos;
        List<Future<SqlConnection>> held = new ArrayList<>();
        int size = settings.dbPoolSize(), hikariOpen = -1;
        try {
            HikariDataSource ds = hikari();
            var bean = ds.getHikariPoolMXBean();
            while (bean != null && bean.getTotalConnections() < size && System.nanoTime() < deadline)
                Thread.sleep(5);
            hikariOpen = bean == null ? -1 : bean.getTotalConnections();
            if (r2dbc()) {
                R2dbcClient.Filled filled = r2dbc.get().fill(deadline - System.nanoTime());
                return shortOf(size, hikariOpen, filled.open(), filled.cause() != null ? filled.cause()
                        : "none opened or refused within " + seconds(waitNanos));
            }
            Pool p = pool();
            for (int i = 0; i < size; i++) held.add(p.getConnection());
            Future.join(held).toCompletionStage().toCompletableFuture()
                    .get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the server is down, slow or refused some: counted below
        } finally {
            for (Future<SqlConnection> c : held) c.onSuccess(SqlConnection::close);   // back to the pool, now or when it arrives
        }
        long vertxOpen = held.stream().filter(Future::succeeded).count();
        return shortOf(size, hikariOpen, vertxOpen, held.stream().filter(Future::failed)
                .map(f -> String.valueOf(f.cause().getMessage())).findFirst()
                .orElse("none opened or refused within " + seconds(waitNanos)));
    }

    /** Nothing when both pools opened {@code size} connections (-1: not known), else the line saying what is short. */
    private Optional<String> shortOf(int size, int hikariOpen, long asyncOpen, String cause) {
        if ((hikariOpen < 0 || hikariOpen >= size) && asyncOpen >= size) return Optional.empty();
        return Optional.of(String.format(java.util.Locale.ROOT, "db pool %d: PostgreSQL at %s opened %s of %d HikariCP and %s of %d %s "
                        + "connections (%s); requests that wait for the rest fail after the pool timeout. Each client opens --db-pool "
                        + "connections (%d in all): lower --db-pool, or raise the server's max_connections",
                size, address, hikariOpen < 0 ? "?" : String.valueOf(hikariOpen), size, asyncOpen < 0 ? "?" : String.valueOf(asyncOpen), size,
                r2dbc() ? "R2DBC" : "Vert.x", cause, 2 * size));
    }

    /**
     * How every PostgreSQL client's pool names a call that got no connection: {@code vertx-pg pool of 10: no
     * connection within 5.0 s} when the wait timed out, {@code vertx-pg pool of 10: could not open a connection, the
     * server refused it or was gone} when the server is the cause.
     */
    static String noConnection(String client, DatastoreSettings settings, NoConnection why) {
        return client + " pool of " + settings.dbPoolSize() + (why == NoConnection.WAIT_TIMEOUT
                ? ": no connection within " + seconds(settings.poolTimeoutNanos())
                : ": could not open a connection, the server refused it or was gone");
    }

    /** A client's message without its live counters ({@code waiting=123}, {@code after 5003ms}): one cause per kind. */
    static String stable(String message) { return String.valueOf(message).replaceAll("\\d+", "N"); }

    static String seconds(long nanos) { return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9); }

    List<PoolStats> stats() { return PoolGauge.ofUsed(jdbcGauge.statsIf(hikari.created()), asyncGauge.statsIf(pool.created() || r2dbc.created())); }

    private HikariDataSource hikari() { return hikari.get(); }

    private HikariDataSource createHikari() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(address.jdbcUrl());
        config.setUsername(address.user());
        config.setPassword(address.password());
        config.setMaximumPoolSize(settings.dbPoolSize());
        config.setMinimumIdle(settings.dbPoolSize());
        config.setConnectionTimeout(TimeUnit.NANOSECONDS.toMillis(settings.poolTimeoutNanos()));
        config.setPoolName("blocklab-jdbc");
        config.setInitializationFailTimeout(-1);   // a server that is down fails calls, not the pool's creation
        return new HikariDataSource(config);
    }

    private Pool pool() { return pool.get(); }

    private R2dbcClient createR2dbc() { return new R2dbcClient(address, settings, asyncGauge); }

    private Pool createPool() {
        PgConnectOptions connect = new PgConnectOptions().setHost(address.host()).setPort(address.port())
                .setDatabase(address.database()).setUser(address.user()).setPassword(address.password())
                .setCachePreparedStatements(true);
        PoolOptions options = new PoolOptions().setMaxSize(settings.dbPoolSize())
                .setConnectionTimeout((int) TimeUnit.NANOSECONDS.toMillis(settings.poolTimeoutNanos()))
                .setConnectionTimeoutUnit(TimeUnit.MILLISECONDS);
        return PgBuilder.pool().with(options).connectingTo(connect).using(vertx.get()).build();
    }

    @Override public synchronized void close() {
        HikariDataSource ds = hikari.close();
        Pool p = pool.close();
        R2dbcClient r = r2dbc.close();
        if (ds != null) ds.close();
        if (r != null) r.close();
        if (p != null) dev.blocklab.backend.Vertxes.awaitClose(p.close(), 10, "closing the Vert.x PostgreSQL pool");
    }
}
