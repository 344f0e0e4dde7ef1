package dev.blocklab.datastore;

import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * How the lab reaches its real backends. Every pool size here is the limit the experiments are about.
 *
 * @param postgres        start an embedded PostgreSQL or use {@code postgresUrl}
 * @param postgresUrl     {@code postgresql://[USER[:PASSWORD]@]HOST[:PORT][/DATABASE]} of a running server, or null to
 *                        start one when {@code postgres} is set
 * @param redis           start {@code redis-server} or use {@code redisUrl}
 * @param redisUrl        {@code redis://HOST:PORT} of a running server, or null to start one
 * @param dbPoolSize      connections of each PostgreSQL pool (HikariCP for blocking calls, the pool of
 *                        {@code pgAsyncClient} for non-blocking ones)
 * @param redisPoolSize   connections of the Jedis pool (blocking calls); non-blocking calls share one
 *                        multiplexed Lettuce connection
 * @param poolTimeoutNanos longest wait for a pooled connection, and Lettuce's command timeout
 * @param pgAsyncClient   the PostgreSQL client of non-blocking calls
 */
public record DatastoreSettings(boolean postgres, String postgresUrl, boolean redis, String redisUrl,
                                int dbPoolSize, int redisPoolSize, long poolTimeoutNanos, PgAsyncClient pgAsyncClient) {
    public static final int DEFAULT_DB_POOL = dev.blocklab.Defaults.DB_POOL;
    public static final int DEFAULT_REDIS_POOL = dev.blocklab.Defaults.REDIS_POOL;
    public static final long DEFAULT_POOL_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** The non-blocking PostgreSQL clients {@code --pg-async-client} chooses from. */
    public enum PgAsyncClient {
        /** The Vert.x reactive PostgreSQL client and its pool. */
        VERTX("Vert.x pool"),
        /** r2dbc-postgresql behind r2dbc-pool (Reactor). */
        R2DBC("R2DBC pool");

        /** For reports, e.g. {@code R2DBC pool}. */
        public final String title;

        PgAsyncClient(String title) { this.title = title; }

        /** As the flag takes it: {@code vertx}, {@code r2dbc}. */
        @Override public String toString() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    public DatastoreSettings {
        if (pgAsyncClient == null) pgAsyncClient = PgAsyncClient.VERTX;
        if (dbPoolSize < 1) throw new IllegalArgumentException("--db-pool must be at least 1, got " + dbPoolSize);
        if (redisPoolSize < 1) throw new IllegalArgumentException("--redis-pool must be at least 1, got " + redisPoolSize);
        if (poolTimeoutNanos < TimeUnit.MILLISECONDS.toNanos(250))
            throw new IllegalArgumentException("--pool-timeout must be at least 250ms (HikariCP's floor)");
        if (postgresUrl != null) postgres(postgresUrl);
        if (redisUrl != null) redis(redisUrl);
        postgres = postgres || postgresUrl != null;
        redis = redis || redisUrl != null;
    }

    /** With the default non-blocking PostgreSQL client (Vert.x). */
    public DatastoreSettings(boolean postgres, String postgresUrl, boolean redis, String redisUrl,
                             int dbPoolSize, int redisPoolSize, long poolTimeoutNanos) {
        this(postgres, postgresUrl, redis, redisUrl, dbPoolSize, redisPoolSize, poolTimeoutNanos, PgAsyncClient.VERTX);
    }

    /** Neither server: the simulated backend only. */
    public static DatastoreSettings none() {
        return new DatastoreSettings(false, null, false, null, DEFAULT_DB_POOL, DEFAULT_REDIS_POOL, DEFAULT_POOL_TIMEOUT_NANOS);
    }

    public DatastoreSettings withDbPool(int size) {
        return new DatastoreSettings(postgres, postgresUrl, redis, redisUrl, size, redisPoolSize, poolTimeoutNanos, pgAsyncClient);
    }

    public DatastoreSettings withRedisPool(int size) {
        return new DatastoreSettings(postgres, postgresUrl, redis, redisUrl, dbPoolSize, size, poolTimeoutNanos, pgAsyncClient);
    }

    public DatastoreSettings withPoolTimeout(long nanos) {
        return new DatastoreSettings(postgres, postgresUrl, redis, redisUrl, dbPoolSize, redisPoolSize, nanos, pgAsyncClient);
    }

    public DatastoreSettings withPgAsyncClient(PgAsyncClient client) {
        return new DatastoreSettings(postgres, postgresUrl, redis, redisUrl, dbPoolSize, redisPoolSize, poolTimeoutNanos, client);
    }

    /** A PostgreSQL server's address, parsed from {@code postgresql://[USER[:PASSWORD]@]HOST[:PORT][/DATABASE]}. */
    public record PostgresAddress(String host, int port, String database, String user, String password) {
        public String jdbcUrl() { return "jdbc:postgresql://" + host + ":" + port + "/" + database; }
        @Override public String toString() { return "postgresql://" + user + "@" + host + ":" + port + "/" + database; }
    }

    /**
     * @throws IllegalArgumentException naming {@code --postgres-url} and what is wrong
     */
    public static PostgresAddress postgres(String url) {
        String hint = "--postgres-url '" + url + "': expected postgresql://[USER[:PASSWORD]@]HOST[:PORT][/DATABASE]"
                + " (USER defaults to postgres, PORT to 5432, DATABASE to USER)";
        URI uri;
        try {
            uri = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(hint);
        }
        if (!("postgresql".equals(uri.getScheme()) || "postgres".equals(uri.getScheme())) || uri.getHost() == null)
            throw new IllegalArgumentException(hint);
        String info = uri.getUserInfo() == null ? "postgres" : uri.getUserInfo();
        String user = info.contains(":") ? info.substring(0, info.indexOf(':')) : info;
        String password = info.contains(":") ? info.substring(info.indexOf(':') + 1) : "";
        String db = uri.getPath() == null || uri.getPath().length() <= 1 ? user : uri.getPath().substring(1);
        return new PostgresAddress(uri.getHost(), port("--postgres-url", url, uri, 5432), db, user, password);
    }

    /** The URL's port, {@code otherwise} without one; a port outside 1..65535 is one line naming the flag. */
    private static int port(String flag, String url, URI uri, int otherwise) {
        if (uri.getPort() < 0) return otherwise;
        if (uri.getPort() == 0 || uri.getPort() > 65_535)
            throw new IllegalArgumentException(flag + " '" + url + "': port " + uri.getPort() + " is not in 1..65535");
        return uri.getPort();
    }

    /** A Redis server's address, parsed from {@code redis://HOST[:PORT]}. */
    public record RedisAddress(String host, int port) {
        @Override public String toString() { return "redis://" + host + ":" + port; }
    }

    /**
     * @throws IllegalArgumentException naming {@code --redis-url} and what is wrong
     */
    public static RedisAddress redis(String url) {
        String hint = "--redis-url '" + url + "': expected redis://HOST[:PORT]";
        try {
            URI uri = new URI(url);
            if (!"redis".equals(uri.getScheme()) || uri.getHost() == null) throw new IllegalArgumentException(hint);
            return new RedisAddress(uri.getHost(), port("--redis-url", url, uri, 6379));
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException(hint);
        }
    }
}
