package dev.blocklab.cli;

import dev.blocklab.datastore.DatastoreSettings;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * {@code serve}'s real-backend options: the servers are chosen with {@code --db}, because {@code serve --backend URL}
 * already names a running 'blocklab backend'; the pool options are {@code run}'s.
 */
final class ServeDatastoreOptions {
    @Option(names = "--db", paramLabel = "KIND", split = ",",
            description = "Real servers for the sql: and redis: steps of --workload files: postgres (embedded), redis (redis-server from the PATH), or postgres,redis.")
    List<String> servers = List.of();

    @picocli.CommandLine.Mixin DatastorePoolOptions pools = new DatastorePoolOptions();

    DatastoreSettings settings() { return pools.settings("--db", servers); }
}
