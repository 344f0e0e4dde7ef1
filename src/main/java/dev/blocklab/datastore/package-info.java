/**
 * Real backends: PostgreSQL and Redis, started by the lab ({@link dev.blocklab.datastore.EmbeddedPostgres} from
 * Maven-served binaries, {@link dev.blocklab.datastore.EmbeddedRedis} from the PATH) or reached by URL, and the
 * {@link dev.blocklab.backend.Backend} port over them ({@link dev.blocklab.datastore.DatastoreBackend}): blocking
 * calls through pgjdbc behind HikariCP and Jedis, non-blocking calls through the Vert.x PostgreSQL client and
 * Lettuce. The connection pool is a first-class limit: each client's wait for a connection and connections in use
 * are measured ({@link dev.blocklab.result.PoolStats}).
 */
package dev.blocklab.datastore;
