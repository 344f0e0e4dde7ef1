package dev.blocklab.cli;

import dev.blocklab.datastore.DatastoreSettings;
import picocli.CommandLine.Option;

import java.util.List;

/** Where the real servers are and how big their pools are: shared by {@code run} and {@code serve} as a mixin. */
final class DatastorePoolOptions {
    @Option(names = "--postgres-url", paramLabel = "URL", description = "Use this PostgreSQL server instead of an embedded one: postgresql://[USER[:PASSWORD]@]HOST[:PORT][/DB] (USER defaults to postgres, DB to USER; the lab creates and fills table blocklab_accounts).")
    String postgresUrl;

    @Option(names = "--redis-url", paramLabel = "URL", description = "Use this Redis server instead of starting one: redis://HOST:PORT (the lab sets keys account:1..1000).")
    String redisUrl;

    @Option(names = "--db-pool", paramLabel = "N", description = "Connections of the PostgreSQL pool: HikariCP for blocking models, the Vert.x or R2DBC pool for non-blocking ones (default: ${DEFAULT-VALUE}).")
    int dbPool;

    @Option(names = "--redis-pool", paramLabel = "N", description = "Connections of the Jedis pool (blocking models); non-blocking models share one Lettuce connection (default: ${DEFAULT-VALUE}).")
    int redisPool;

    @Option(names = "--pool-timeout", paramLabel = "D", description = "Longest wait for a pooled connection, and Lettuce's command timeout (default: ${DEFAULT-VALUE}).")
    String poolTimeout;

    @Option(names = "--pg-async-client", paramLabel = "CLIENT", description = "PostgreSQL client of non-blocking models: vertx (the Vert.x reactive client) or r2dbc (r2dbc-postgresql behind r2dbc-pool), each with --db-pool connections (default: ${DEFAULT-VALUE}).")
    String pgAsyncClient;

    /** The client {@code --pg-async-client} names; anything else is one line naming the flag. */
    DatastoreSettings.PgAsyncClient pgAsyncClient() {
        if (pgAsyncClient == null) return DatastoreSettings.PgAsyncClient.VERTX;
        for (DatastoreSettings.PgAsyncClient c : DatastoreSettings.PgAsyncClient.values())
            if (c.toString().equals(pgAsyncClient)) return c;
        throw new IllegalArgumentException("--pg-async-client must be vertx or r2dbc, got '" + pgAsyncClient + "'");
    }

    /**
     * The settings for the servers listed in {@code kinds}, each problem naming its flag ({@code kindsFlag} for the
     * list; {@code otherKinds} ends the list of accepted kinds where the command takes more).
     */
    DatastoreSettings settings(String kindsFlag, List<String> kinds, String otherKinds) {
        boolean postgres = false;
        boolean redis = false;
        for (String b : kinds) {
            switch (b.trim()) {
                case "postgres" -> postgres = true;
                case "redis" -> redis = true;
                case "simulated" -> { }
                default -> throw new IllegalArgumentException(kindsFlag + " must be simulated, postgres, redis or postgres,redis" + otherKinds + ", got '" + b + "'");
            }
        }
        return new DatastoreSettings(postgres, postgresUrl, redis, redisUrl, dbPool, redisPool, Flags.duration("--pool-timeout", poolTimeout),
                pgAsyncClient());
    }
}
