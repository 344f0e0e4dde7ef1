package dev.blocklab.datastore;

/**
 * One embedded PostgreSQL and one redis-server for the whole test JVM, started on first use and stopped by
 * their shutdown hooks when the JVM exits. Tests that need Redis skip themselves (with the install hint) where
 * redis-server is missing, except under CI (environment variable {@code CI} set), where {@code .ci/run} installs
 * it and its absence fails them, as chromium's does for the browser test.
 */
public final class TestServers {
    private static Datastores shared;

    private TestServers() {}

    /** Both servers, with the lab's data loaded, pools of {@code 4}. */
    public static synchronized Datastores shared() {
        if (shared == null) {
            assumeRedis();
            shared = Datastores.open(new DatastoreSettings(true, null, true, null, 4, 4, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS),
                    line -> System.err.println("test servers: " + line));
        }
        return shared;
    }

    /** Skips the calling test where redis-server is missing; fails it under CI, which must install it. */
    public static void assumeRedis() {
        if (System.getenv("CI") != null && !EmbeddedRedis.available())
            throw new AssertionError("CI must install redis-server (see .ci/run): " + EmbeddedRedis.INSTALL_HINT);
        org.junit.jupiter.api.Assumptions.assumeTrue(EmbeddedRedis.available(), EmbeddedRedis.INSTALL_HINT);
    }

    /** Settings that reach the shared servers with other pool sizes or timeouts. */
    public static DatastoreSettings reaching(int dbPool, int redisPool, long poolTimeoutNanos) {
        Datastores d = shared();
        return new DatastoreSettings(true, d.embeddedPostgres().orElseThrow().url(), true, d.embeddedRedis().orElseThrow().url(),
                dbPool, redisPool, poolTimeoutNanos);
    }
}
