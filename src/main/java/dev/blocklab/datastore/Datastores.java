package dev.blocklab.datastore;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Operation;
import dev.blocklab.workload.Step;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * The real servers of one command: started by the lab (embedded PostgreSQL, {@code redis-server}) or reached at
 * the given URLs, with the lab's data in place (table {@value Operation#TABLE} with {@value Operation#ROWS} rows,
 * keys {@code account:1..ROWS}). Every run gets a fresh {@link DatastoreBackend} (fresh pools) from
 * {@link #newBackend()}; the servers live until {@link #close()}, which stops the ones the lab started.
 */
public final class Datastores implements AutoCloseable {
    private final DatastoreSettings settings;
    private final EmbeddedPostgres embeddedPostgres;
    private final EmbeddedRedis embeddedRedis;
    private final DatastoreSettings.PostgresAddress postgres;
    private final DatastoreSettings.RedisAddress redis;
    private final Consumer<String> log;
    private final java.util.Set<String> said = java.util.concurrent.ConcurrentHashMap.newKeySet();   // each warning once

    private Datastores(DatastoreSettings settings, EmbeddedPostgres embeddedPostgres, EmbeddedRedis embeddedRedis,
                       DatastoreSettings.PostgresAddress postgres, DatastoreSettings.RedisAddress redis, Consumer<String> log) {
        this.log = log;
        this.settings = settings;
        this.embeddedPostgres = embeddedPostgres;
        this.embeddedRedis = embeddedRedis;
        this.postgres = postgres;
        this.redis = redis;
    }

    /**
     * Starts or reaches the servers the settings ask for and loads the lab's data.
     *
     * @param log one line per server started, e.g. its start-up time, and once a pool that could not be filled
     * @throws IllegalStateException when a server cannot be started or reached, naming it
     */
    public static Datastores open(DatastoreSettings settings, Consumer<String> log) {
        EmbeddedPostgres pg = null;
        EmbeddedRedis rd = null;
        try {
            DatastoreSettings.PostgresAddress pgAddress = null;
            if (settings.postgres()) {
                if (settings.postgresUrl() == null) {
                    // each run fills both pools (HikariCP and Vert.x or R2DBC), so the server must take twice the pool
                    pg = EmbeddedPostgres.start(Math.max(EmbeddedPostgres.DEFAULT_MAX_CONNECTIONS, 2 * settings.dbPoolSize() + 10));
                    log.accept(String.format(Locale.ROOT, "embedded %s on 127.0.0.1:%d, started in %.2f s (unpack if needed, initdb, start)",
                            pg.version(), pg.port(), pg.startupNanos() / 1e9));
                }
                pgAddress = DatastoreSettings.postgres(pg != null ? pg.url() : settings.postgresUrl());
                loadTable(pgAddress);
            }
            DatastoreSettings.RedisAddress redisAddress = null;
            if (settings.redis()) {
                if (settings.redisUrl() == null) {
                    rd = EmbeddedRedis.start();
                    log.accept(String.format(Locale.ROOT, "redis-server on 127.0.0.1:%d, started in %.2f s",
                            rd.port(), rd.startupNanos() / 1e9));
                }
                redisAddress = DatastoreSettings.redis(rd != null ? rd.url() : settings.redisUrl());
                loadKeys(redisAddress);
            }
            return new Datastores(settings, pg, rd, pgAddress, redisAddress, log);
        } catch (RuntimeException e) {
            if (pg != null) pg.close();
            if (rd != null) rd.close();
            throw e;
        }
    }

    /**
     * Checks that the servers asked for cover the workload's steps.
     *
     * @throws IllegalArgumentException naming the first step that needs a server not asked for, and the flag
     */
    public static void check(Graph graph, DatastoreSettings settings) {
        for (Step step : graph.steps()) {
            if (step instanceof Step.Call c && c.operation() instanceof Operation.Sql && !settings.postgres())
                throw new IllegalArgumentException("step '" + c.name() + "' is a SQL step: add --backend postgres (embedded) or --postgres-url URL");
            if (step instanceof Step.Call c && c.operation() instanceof Operation.Redis && !settings.redis())
                throw new IllegalArgumentException("step '" + c.name() + "' is a Redis step: add --backend redis (starts redis-server) or --redis-url URL");
            if (step instanceof Step.Call c && c.operation() instanceof Operation.Redis redis)
                RedisClients.checkCommand(c.name(), redis.command());   // before any server starts: every call would fail
        }
    }

    /**
     * Refuses a database or cache that no step of {@code graph} would use, before it is started: for a run of one
     * workload, where starting one would only cost time and say nothing.
     */
    public static void checkUsed(Graph graph, DatastoreSettings settings) {
        boolean sql = graph.steps().stream().anyMatch(s -> s instanceof Step.Call c && c.operation() instanceof Operation.Sql);
        boolean redisStep = graph.steps().stream().anyMatch(s -> s instanceof Step.Call c && c.operation() instanceof Operation.Redis);
        if (settings.postgres() && !sql)
            throw new IllegalArgumentException((settings.postgresUrl() != null ? "--postgres-url" : "--backend postgres") + ": no step of this workload is a SQL step, so nothing would use the database (docs/database.md)");
        if (settings.redis() && !redisStep)
            throw new IllegalArgumentException((settings.redisUrl() != null ? "--redis-url" : "--backend redis") + ": no step of this workload is a Redis step, so nothing would use the cache (docs/database.md)");
    }

    /**
     * A fresh backend with fresh pools for one run, every pool already filled (so a run does not measure opening
     * connections). Its pool figures end up in the run's result ({@link dev.blocklab.result.RunResult#pools()}).
     */
    public Backend newBackend() { return newBackend(settings); }

    /**
     * Keeps the servers the lab started up during a JVM shutdown (Ctrl-C) until {@code done} opens, for at most
     * 20 s: a run stopping keeps its requests in flight served. Forget it with {@link #release}.
     */
    public static void keepUpUntil(java.util.concurrent.CountDownLatch done) { ServerProcess.keepUpUntil(done); }

    /** Forgets a latch given to {@link #keepUpUntil}. */
    public static void release(java.util.concurrent.CountDownLatch done) { ServerProcess.released(done); }

    /** As {@link #newBackend()} with other pool sizes or timeout (the servers stay those of this instance). */
    public DatastoreBackend newBackend(DatastoreSettings pools) {
        DatastoreBackend backend = new DatastoreBackend(pools, postgres, redis);
        backend.fillPools().filter(said::add).ifPresent(problem -> log.accept("warning: " + problem));
        return backend;
    }

    public DatastoreSettings settings() { return settings; }

    /** The embedded PostgreSQL, when the lab started one. */
    public java.util.Optional<EmbeddedPostgres> embeddedPostgres() { return java.util.Optional.ofNullable(embeddedPostgres); }

    /** The embedded Redis, when the lab started one. */
    public java.util.Optional<EmbeddedRedis> embeddedRedis() { return java.util.Optional.ofNullable(embeddedRedis); }

    /** For reports: which servers and pools, e.g. {@code postgres embedded 127.0.0.1:5433, db pool 10}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (postgres != null)
            parts.add((embeddedPostgres != null ? embeddedPostgres.version() + " embedded" : "PostgreSQL " + postgres)
                    + ", db pool " + settings.dbPoolSize() + " (HikariCP for blocking calls, " + settings.pgAsyncClient().title + " for non-blocking; each opens its connections before use)");
        if (redis != null)
            parts.add("Redis " + (embeddedRedis != null ? "(redis-server from the PATH, started by the lab on 127.0.0.1:" + embeddedRedis.port() + ")" : redis.toString())
                    + ", redis pool " + settings.redisPoolSize() + " (Jedis for blocking calls; one Lettuce connection for non-blocking)");
        parts.add(String.format(Locale.ROOT, "pool timeout %.1f s", settings.poolTimeoutNanos() / 1e9));
        return String.join("; ", parts);
    }

    /** Creates and fills the lab's table when it is missing. */
    static void loadTable(DatastoreSettings.PostgresAddress address) {
        Properties p = new Properties();
        p.setProperty("user", address.user());
        p.setProperty("password", address.password());
        try (Connection c = DriverManager.getConnection(address.jdbcUrl(), p); Statement s = c.createStatement()) {
            s.execute("create table if not exists " + Operation.TABLE
                    + " (id bigint primary key, name text not null, balance bigint not null)");
            s.execute("insert into " + Operation.TABLE + " select g, 'account-' || g, 1000 from generate_series(1, "
                    + Operation.ROWS + ") g on conflict (id) do nothing");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot prepare table " + Operation.TABLE + " on " + address + ": " + withCauses(e), e);
        }
    }

    /** True when every word of {@code cause} is already in {@code text} ("Connection refused" under "Connection to ... refused"). */
    private static boolean saysNothingNew(String text, String cause) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        return java.util.Arrays.stream(cause.toLowerCase(java.util.Locale.ROOT).split("\\W+"))
                .allMatch(word -> word.isEmpty() || lower.contains(word));
    }

    /**
     * The message and the causes' under it, where they say more: pgjdbc's "The connection attempt failed." alone
     * hides that the host is unknown ({@code java.net.UnknownHostException: nohost.invalid}).
     */
    static String withCauses(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            String m = c.getMessage();
            if (m == null || saysNothingNew(text.toString(), m)) continue;
            text.append(": ").append(c.getClass().getSimpleName()).append(" ").append(m);
        }
        return text.toString();
    }

    /** Sets keys {@code account:1..ROWS} to {@code account-N}. */
    static void loadKeys(DatastoreSettings.RedisAddress address) {
        try (var jedis = new redis.clients.jedis.Jedis(address.host(), address.port())) {
            var pipeline = jedis.pipelined();
            for (int i = 1; i <= Operation.ROWS; i++) pipeline.set("account:" + i, "account-" + i);
            pipeline.sync();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot reach Redis at " + address + ": " + withCauses(e), e);
        }
    }

    @Override public void close() {
        try {
            if (embeddedPostgres != null) embeddedPostgres.close();
        } finally {
            if (embeddedRedis != null) embeddedRedis.close();
        }
    }
}
