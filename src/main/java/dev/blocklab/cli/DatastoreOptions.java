package dev.blocklab.cli;

import dev.blocklab.datastore.DatastoreSettings;
import picocli.CommandLine.Option;

import java.util.List;

/** {@code run}'s real-backend options, as one picocli mixin: {@code --backend} and the pool options. */
final class DatastoreOptions {
    @Option(names = "--backend", paramLabel = "KIND", split = ",",
            description = "Real servers for sql: and redis: steps: postgres (an embedded PostgreSQL, started on a free port of 127.0.0.1 "
                    + "and removed afterwards), redis (redis-server from the PATH), or both: postgres,redis. "
                    + "Other steps stay simulated (default: simulated).")
    List<String> backends = List.of();

    @picocli.CommandLine.Mixin DatastorePoolOptions pools = new DatastorePoolOptions();

    DatastoreSettings settings() { return pools.settings("--backend", backends); }
}
