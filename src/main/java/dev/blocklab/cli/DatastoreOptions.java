package dev.blocklab.cli;

import dev.blocklab.datastore.DatastoreSettings;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the downstream calls of {@code run}, {@code serve}, {@code capacity} and {@code advise} go, as one picocli
 * mixin: {@code --backend KIND} and the pool options. {@link WithFormerDb} adds {@code --db}, the former name
 * {@code run} and {@code serve} keep hidden for a release.
 */
class DatastoreOptions {
    @Option(names = "--backend", paramLabel = "KIND", split = ",",
            description = "Where downstream calls go: simulated (in process, the default); for sql: and redis: steps, postgres (an embedded "
                    + "PostgreSQL, started on a free port of 127.0.0.1 and removed afterwards), redis (redis-server from the PATH), or both: "
                    + "postgres,redis, other steps staying simulated; serve also takes http (with --backend-url).")
    List<String> backends = new ArrayList<>();

    @picocli.CommandLine.Mixin DatastorePoolOptions pools = new DatastorePoolOptions();

    @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec mixee;   // the command using these options: which of them were given

    /** The kinds given. */
    List<String> kinds() { return new ArrayList<>(backends); }

    /** As {@link DatastoreOptions}, with {@code --db}, the former name of {@code --backend} under {@code run} and {@code serve}. */
    static final class WithFormerDb extends DatastoreOptions {
        /** The former {@code serve --db KIND}: more of the same list. */
        @Option(names = "--db", paramLabel = "KIND", split = ",", hidden = true)
        List<String> formerDb = new ArrayList<>();

        /** The kinds given, under either name. */
        @Override List<String> kinds() {
            List<String> all = super.kinds();
            all.addAll(formerDb);
            return all;
        }
    }

    DatastoreSettings settings() { return settings(kinds()); }

    /** A server URL with its password, if any, as {@code ***}: {@code postgresql://u:***@h:5432/db}, {@code redis://:***@h:6379}. */
    static String masked(String url) {
        return url.replaceFirst("(://[^:/@]*):[^@/]*@", "$1:***@").replaceAll("(?i)([?&]password=)[^&]*", "$1***");
    }

    /** The options given, as a command line repeats them ({@code --backend postgres --db-pool 10}); empty when none was. */
    List<String> args() {
        List<String> args = new ArrayList<>();
        if (!kinds().isEmpty()) args.addAll(List.of("--backend", String.join(",", kinds())));
        if (pools.postgresUrl != null) args.addAll(List.of("--postgres-url", "'" + masked(pools.postgresUrl) + "'"));
        if (pools.redisUrl != null) args.addAll(List.of("--redis-url", "'" + masked(pools.redisUrl) + "'"));
        if (Flags.given(mixee, "--db-pool")) args.addAll(List.of("--db-pool", String.valueOf(pools.dbPool)));
        if (Flags.given(mixee, "--redis-pool")) args.addAll(List.of("--redis-pool", String.valueOf(pools.redisPool)));
        if (Flags.given(mixee, "--pool-timeout")) args.addAll(List.of("--pool-timeout", pools.poolTimeout));
        if (Flags.given(mixee, "--pg-async-client")) args.addAll(List.of("--pg-async-client", pools.pgAsyncClient));
        return args;
    }

    /**
     * The settings of the options given, without asking whether this machine has {@code redis-server}: a command
     * checks its workload against them first, then calls {@link #installed}, so a mistake in the command is named
     * the same wherever it runs.
     */
    DatastoreSettings settings(List<String> kinds) { return poolsUsed(pools.settings("--backend", kinds, "")); }

    /** As {@link #settings(List)} for {@code serve}, which also takes {@code http} (removed from {@code kinds} before). */
    DatastoreSettings serveSettings(List<String> kinds) { return poolsUsed(pools.settings("--backend", kinds, ", or http with --backend-url")); }

    /**
     * {@code settings}, once this machine can start what they need: before any server starts (PostgreSQL takes
     * seconds), one line saying how to install {@code redis-server} when it is missing, exit 2.
     */
    static DatastoreSettings installed(DatastoreSettings settings) {
        if (settings.redis() && settings.redisUrl() == null && !dev.blocklab.datastore.EmbeddedRedis.available())
            throw new IllegalArgumentException(dev.blocklab.datastore.EmbeddedRedis.INSTALL_HINT);
        return settings;
    }

    /** {@code settings}, refused where a pool option was given for a server that is not used (it would be ignored). */
    private DatastoreSettings poolsUsed(DatastoreSettings settings) {
        if (!settings.postgres() && Flags.given(mixee, "--db-pool"))
            throw new IllegalArgumentException("--db-pool sizes the PostgreSQL pool: it needs --backend postgres or --postgres-url");
        if (!settings.postgres() && Flags.given(mixee, "--pg-async-client"))
            throw new IllegalArgumentException("--pg-async-client chooses a PostgreSQL client: it needs --backend postgres or --postgres-url");
        if (!settings.redis() && Flags.given(mixee, "--redis-pool"))
            throw new IllegalArgumentException("--redis-pool sizes the Redis pool: it needs --backend redis or --redis-url");
        if (!settings.postgres() && !settings.redis() && Flags.given(mixee, "--pool-timeout"))
            throw new IllegalArgumentException("--pool-timeout applies to the PostgreSQL and Redis pools: it needs --backend postgres or redis");
        return settings;
    }
}
