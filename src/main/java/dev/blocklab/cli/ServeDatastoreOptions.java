package dev.blocklab.cli;

import dev.blocklab.datastore.DatastoreSettings;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * {@code serve}'s real-backend options: as {@link DatastoreOptions}, but the servers are chosen with {@code --db}
 * because {@code serve --backend URL} already names a running 'blocklab backend'.
 */
final class ServeDatastoreOptions {
    @Option(names = "--db", paramLabel = "KIND", split = ",",
            description = "Real servers for the sql: and redis: steps of --workload files: postgres (embedded), redis (redis-server from the PATH), or postgres,redis.")
    List<String> servers = List.of();

    @Option(names = "--postgres-url", paramLabel = "URL", description = "Use this PostgreSQL server: postgresql://USER[:PASSWORD]@HOST:PORT/DB.")
    String postgresUrl;

    @Option(names = "--redis-url", paramLabel = "URL", description = "Use this Redis server: redis://HOST:PORT.")
    String redisUrl;

    @Option(names = "--db-pool", paramLabel = "N", defaultValue = "10", description = "Connections of the PostgreSQL pool (default: ${DEFAULT-VALUE}).")
    int dbPool;

    @Option(names = "--redis-pool", paramLabel = "N", defaultValue = "8", description = "Connections of the Jedis pool (default: ${DEFAULT-VALUE}).")
    int redisPool;

    @Option(names = "--pool-timeout", paramLabel = "D", defaultValue = "5s", description = "Longest wait for a pooled connection (default: ${DEFAULT-VALUE}).")
    String poolTimeout;

    DatastoreSettings settings() {
        return DatastoreOptions.settings("--db", servers, postgresUrl, redisUrl, dbPool, redisPool, poolTimeout);
    }
}
