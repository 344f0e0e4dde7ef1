package dev.blocklab.datastore;

import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Operation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Faults on the real servers: each call fails with its cause named, nothing hangs, and calls work again after. */
class DatastoreFaultIT {
    private static final long TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    /**
     * For the tests whose subject is not the pool's wait: long enough that a pool reaches the server's refusal
     * before its timeout on a loaded machine (with 300 ms, an r2dbc acquire that validated a dead connection timed
     * out first, and Vert.x's 15 connections were not all asked for before their fill timed out).
     */
    private static final long GENEROUS_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(3);

    private static CallInvocation call(long id, Operation op) { return new CallInvocation("step", id, 0, 0, 0L, null, op); }

    /** Outcome of each call: its answer, or "failed: " and the root cause's message. */
    private static List<String> outcomes(List<? extends Future<Object>> calls) throws InterruptedException {
        List<String> out = new ArrayList<>();
        for (Future<Object> f : calls) {
            try {
                out.add(String.valueOf(f.get(30, TimeUnit.SECONDS)));   // bounded: a hang fails the test
            } catch (ExecutionException e) {
                out.add("failed: " + e.getCause().getMessage());
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("a call hung", e);
            }
        }
        return out;
    }

    @Test
    void poolWaitTimeout_failsTheCallsThatGetNoConnection_bothClients() throws Exception {
        DatastoreSettings settings = TestServers.reaching(1, 1, TIMEOUT_NANOS);
        Operation.Sql slow = new Operation.Sql("select pg_sleep(2)");   // holds the one connection far beyond the 300 ms wait
        try (DatastoreBackend backend = new DatastoreBackend(settings, DatastoreSettings.postgres(settings.postgresUrl()), null);
             var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            backend.fillPools();
            List<Future<Object>> blocking = new ArrayList<>();
            for (int i = 0; i < 3; i++) blocking.add(threads.submit(() -> backend.callBlocking(call(1, slow))));
            List<String> b = outcomes(blocking);
            assertThat(b).filteredOn(o -> o.equals("1")).hasSize(1);
            assertThat(b).filteredOn(o -> o.startsWith("failed: jdbc+hikari pool of 1: no connection within")).hasSize(2);

            List<CompletableFuture<Object>> async = new ArrayList<>();
            for (int i = 0; i < 3; i++) async.add(backend.callAsync(call(1, slow)));
            List<String> a = outcomes(async);
            assertThat(a).filteredOn(o -> o.equals("1")).hasSize(1);
            assertThat(a).filteredOn(o -> o.startsWith("failed: vertx-pg pool of 1: no connection within")).hasSize(2);
            assertThat(backend.poolStats()).hasSize(2).allSatisfy(s -> {
                assertThat(s.failedWaits()).as(s.line()).isEqualTo(2);
                assertThat(s.connectFailures()).as("the server was up: the pool was the limit").isZero();
            });
        }
    }

    @Test
    void poolsLargerThanTheServerTakes_areSaidOnce_withTheServersReason() throws Exception {
        // max_connections 20 (3 of them kept for superusers) against two pools of 15: 30 connections asked for
        try (EmbeddedPostgres pg = EmbeddedPostgres.start(20)) {
            DatastoreSettings settings = new DatastoreSettings(true, pg.url(), false, null, 15, 1, GENEROUS_TIMEOUT_NANOS);
            List<String> said = new ArrayList<>();
            try (Datastores servers = Datastores.open(settings, said::add)) {
                for (int run = 0; run < 2; run++)   // a second run's pools fall short the same way: said once
                    try (DatastoreBackend backend = servers.newBackend(settings)) {
                        assertThat(backend.poolStats()).isNotNull();
                    }
            }
            assertThat(said).filteredOn(l -> l.startsWith("warning: ")).singleElement().asString()
                    .startsWith("warning: db pool 15: PostgreSQL at " + DatastoreSettings.postgres(pg.url()) + " opened ")
                    .contains("too many clients").contains("(30 in all): lower --db-pool, or raise the server's max_connections");
        }
    }

    @Test
    void postgresKilledMidRun_callsFailWithTheCause_thenWorkAfterRestart() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            Datastores.loadTable(DatastoreSettings.postgres(pg.url()));
            DatastoreSettings settings = new DatastoreSettings(true, pg.url(), false, null, 2, 2, TIMEOUT_NANOS);
            Operation.Sql read = new Operation.Sql("select name from blocklab_accounts where id = $1");
            try (DatastoreBackend backend = new DatastoreBackend(settings, DatastoreSettings.postgres(pg.url()), null);
                 var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                backend.fillPools();
                assertThat(backend.callBlocking(call(0, read))).isEqualTo("account-1");
                // calls in flight when the server dies
                List<Future<Object>> inFlight = new ArrayList<>();
                for (int i = 0; i < 2; i++) inFlight.add(threads.submit(() -> backend.callBlocking(call(0, new Operation.Sql("select pg_sleep(5)")))));
                CompletableFuture<Object> asyncInFlight = backend.callAsync(call(0, new Operation.Sql("select pg_sleep(5)")));
                Thread.sleep(300);
                pg.kill();
                assertThat(outcomes(inFlight)).allSatisfy(o -> assertThat(o).startsWith("failed: "));
                assertThat(outcomes(List.of(asyncInFlight))).allSatisfy(o -> assertThat(o).startsWith("failed: "));
                // new calls while it is down: refused, named, within the pool timeout
                List<String> down = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    down.add(assertThatThrownBy(() -> backend.callBlocking(call(0, read))).isInstanceOf(java.sql.SQLException.class)
                            .actual().getMessage());
                    down.add(assertThatThrownBy(() -> backend.callAsync(call(0, read)).get(30, TimeUnit.SECONDS))
                            .hasCauseInstanceOf(java.sql.SQLException.class).actual().getCause().getMessage());
                }
                // the server is the cause, not the pool: no failed wait for a connection, and the failures say so
                assertThat(backend.poolStats()).extracting(PoolStats::client).containsExactly("jdbc+hikari", "vertx-pg");
                assertThat(backend.poolStats()).allSatisfy(s -> {
                    assertThat(s.failedWaits()).as(s.line()).isZero();
                    assertThat(s.connectFailures()).as(s.line()).isPositive();
                    assertThat(s.line()).contains("connect failures: the server refused the connection or was gone");
                });
                assertThat(down).as(String.join("\n", down)).noneMatch(m -> m.contains("no connection within"))
                        .anyMatch(m -> m.startsWith("jdbc+hikari pool of 2: could not open a connection, the server refused it or was gone ("))
                        .anyMatch(m -> m.startsWith("vertx-pg pool of 2: could not open a connection, the server refused it or was gone ("));
                pg.restart();
                assertThat(eventually(() -> backend.callBlocking(call(0, read)))).isEqualTo("account-1");
                assertThat(eventually(() -> backend.callAsync(call(0, read)).get(30, TimeUnit.SECONDS))).isEqualTo("account-1");
            }
        }
    }

    @Test
    void postgresKilled_r2dbcCountsConnectFailures_notFailedWaits() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            Datastores.loadTable(DatastoreSettings.postgres(pg.url()));
            DatastoreSettings settings = new DatastoreSettings(true, pg.url(), false, null, 2, 2, GENEROUS_TIMEOUT_NANOS)
                    .withPgAsyncClient(DatastoreSettings.PgAsyncClient.R2DBC);
            Operation.Sql read = new Operation.Sql("select name from blocklab_accounts where id = $1");
            try (DatastoreBackend backend = new DatastoreBackend(settings, DatastoreSettings.postgres(pg.url()), null)) {
                backend.fillPools();
                assertThat(backend.callAsync(call(0, read)).get(30, TimeUnit.SECONDS)).isEqualTo("account-1");
                pg.kill();
                List<String> down = new ArrayList<>();
                for (int i = 0; i < 4; i++)
                    down.add(assertThatThrownBy(() -> backend.callAsync(call(0, read)).get(30, TimeUnit.SECONDS))
                            .isInstanceOf(ExecutionException.class).actual().getCause().getMessage());
                PoolStats r2dbc = backend.poolStats().getLast();
                assertThat(r2dbc.client()).isEqualTo("r2dbc");
                assertThat(r2dbc.failedWaits()).as(r2dbc.line() + "\n" + String.join("\n", down)).isZero();
                assertThat(r2dbc.connectFailures()).as(r2dbc.line() + "\n" + String.join("\n", down)).isPositive();
                assertThat(down).anyMatch(m -> m.startsWith("r2dbc pool of 2: could not open a connection, the server refused it or was gone ("));
            }
        }
    }

    @Test
    void redisKilledMidRun_callsFailWithTheCause_thenWorkAfterRestart() throws Exception {
        TestServers.assumeRedis();
        try (EmbeddedRedis redis = EmbeddedRedis.start()) {
            Datastores.loadKeys(DatastoreSettings.redis(redis.url()));
            DatastoreSettings settings = new DatastoreSettings(false, null, true, redis.url(), 2, 2, TIMEOUT_NANOS);
            Operation.Redis get = Operation.Redis.parse("GET account:{row}", 1);
            try (DatastoreBackend backend = new DatastoreBackend(settings, null, DatastoreSettings.redis(redis.url()))) {
                backend.fillPools();
                assertThat(backend.callBlocking(call(0, get))).isEqualTo("account-1");
                assertThat(backend.callAsync(call(0, get)).get(30, TimeUnit.SECONDS)).isEqualTo("account-1");
                redis.kill();
                for (int i = 0; i < 4; i++) {   // the pool's two idle connections fail on use, then new ones are refused
                    assertThatThrownBy(() -> backend.callBlocking(call(0, get))).isInstanceOf(redis.clients.jedis.exceptions.JedisException.class);
                    assertThatThrownBy(() -> backend.callAsync(call(0, get)).get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
                }
                // the server is the cause, not the pool: no failed wait for a connection
                assertThat(backend.poolStats()).extracting(PoolStats::client).containsExactly("jedis", "lettuce (one shared connection)");
                assertThat(backend.poolStats()).allSatisfy(s -> {
                    assertThat(s.failedWaits()).as(s.line()).isZero();
                    assertThat(s.connectFailures()).as(s.line()).isPositive();
                });
                redis.restart();
                Datastores.loadKeys(DatastoreSettings.redis(redis.url()));   // persistence is off: the keys went with the crash
                assertThat(eventually(() -> backend.callBlocking(call(0, get)))).isEqualTo("account-1");
                assertThat(eventually(() -> backend.callAsync(call(0, get)).get(30, TimeUnit.SECONDS))).isEqualTo("account-1");
            }
        }
    }

    @Test
    void embeddedPostgres_removesItsDataWhenClosed() throws Exception {
        java.nio.file.Path data;
        try (EmbeddedPostgres pg = EmbeddedPostgres.start()) {
            assertThat(pg.version()).startsWith("PostgreSQL 1");
            try (var c = java.sql.DriverManager.getConnection(DatastoreSettings.postgres(pg.url()).jdbcUrl(), "postgres", "");
                 var rs = c.createStatement().executeQuery("show data_directory")) {
                rs.next();
                data = java.nio.file.Path.of(rs.getString(1));
            }
            assertThat(data).exists();
        }
        assertThat(data).doesNotExist();
    }

    @FunctionalInterface
    interface Attempt { Object get() throws Exception; }

    /** The first success within 30 s of tries (a pool reconnects in the background). */
    private static Object eventually(Attempt attempt) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return attempt.get();
            } catch (Exception e) {
                if (System.nanoTime() > deadline) throw e;
                Thread.sleep(100);
            }
        }
    }
}
