package dev.blocklab.datastore;

import dev.blocklab.datastore.DatastoreSettings.PgAsyncClient;
import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Operation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --pg-async-client r2dbc}: non-blocking SQL calls through r2dbc-postgresql and r2dbc-pool, on the real server. */
class R2dbcClientIT {
    private static CallInvocation call(long id, Operation op) { return new CallInvocation("step", id, 0, 0, 0L, null, op); }

    private static DatastoreBackend backend(int dbPool, long poolTimeoutNanos) {
        DatastoreSettings settings = TestServers.reaching(dbPool, 1, poolTimeoutNanos).withPgAsyncClient(PgAsyncClient.R2DBC);
        return new DatastoreBackend(settings, DatastoreSettings.postgres(settings.postgresUrl()), null);
    }

    @Test
    void readSleepAndUpdate_answerAsTheOtherClients_andAreCounted() throws Exception {
        try (DatastoreBackend backend = backend(2, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS)) {
            assertThat(backend.fillPools()).isEmpty();
            Operation.Sql name = new Operation.Sql("select name from blocklab_accounts where id = $1");
            assertThat(backend.callAsync(call(41, name)).get(30, TimeUnit.SECONDS)).isEqualTo("account-42");
            assertThat(backend.callBlocking(call(41, name))).isEqualTo("account-42");
            assertThat(backend.callAsync(call(7, new Operation.Sql("select balance from blocklab_accounts where id = $1")))
                    .get(30, TimeUnit.SECONDS)).isEqualTo(1000L);
            assertThat(backend.callAsync(call(0, new Operation.Sql("select pg_sleep(0.01)"))).get(30, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(backend.callAsync(call(999, new Operation.Sql("update blocklab_accounts set balance = balance where id = $1")))
                    .get(30, TimeUnit.SECONDS)).isEqualTo(1L);
            assertThat(backend.callAsync(call(0, new Operation.Sql("select id from blocklab_accounts where id < 0")))
                    .get(30, TimeUnit.SECONDS)).isEqualTo(0L);
            // four sleeps of 100 ms through two connections: two waited
            List<CompletableFuture<Object>> sleeps = new ArrayList<>();
            for (int i = 0; i < 4; i++) sleeps.add(backend.callAsync(call(i, new Operation.Sql("select pg_sleep(0.1)"))));
            for (CompletableFuture<Object> f : sleeps) assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1L);

            assertThat(backend.poolStats()).extracting(PoolStats::client).containsExactly("jdbc+hikari", "r2dbc");
            PoolStats r2dbc = backend.poolStats().getLast();
            assertThat(r2dbc.poolSize()).isEqualTo(2);
            assertThat(r2dbc.calls()).isEqualTo(9);
            assertThat(r2dbc.failedWaits()).isZero();
            assertThat(r2dbc.peakInUse()).isEqualTo(2);
            assertThat(r2dbc.maxWaitMillis()).isGreaterThan(50);
            assertThat(r2dbc.line()).startsWith("r2dbc pool 2: 9 calls, 0 failed waits, 0 connect failures, peak 2 in use, wait for a connection mean ");
        }
    }

    @Test
    void sqlError_failsTheCallWithTheServersMessage() {
        try (DatastoreBackend backend = backend(1, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.callAsync(call(0, new Operation.Sql("select * from no_such_table")))
                    .get(30, TimeUnit.SECONDS)).hasMessageContaining("no_such_table");
        }
    }

    @Test
    void poolWaitTimeout_failsTheCallsThatGetNoConnection_onceTheWaitIsOver() throws Exception {
        Operation.Sql slow = new Operation.Sql("select pg_sleep(3)");   // holds the one connection far beyond the 1 s wait
        try (DatastoreBackend backend = backend(1, TimeUnit.SECONDS.toNanos(1))) {
            assertThat(backend.fillPools()).isEmpty();
            List<CompletableFuture<Object>> async = new ArrayList<>();
            List<Double> failedAfterSeconds = java.util.Collections.synchronizedList(new ArrayList<>());
            long sentNanos = System.nanoTime();
            for (int i = 0; i < 3; i++)
                async.add(backend.callAsync(call(1, slow)).whenComplete((v, e) -> {
                    if (e != null) failedAfterSeconds.add((System.nanoTime() - sentNanos) / 1e9);
                }));
            List<String> out = new ArrayList<>();
            for (CompletableFuture<Object> f : async) {
                try {
                    out.add(String.valueOf(f.get(30, TimeUnit.SECONDS)));
                } catch (ExecutionException e) {
                    out.add("failed: " + e.getCause().getMessage());
                }
            }
            assertThat(out).filteredOn(o -> o.equals("1")).hasSize(1);
            assertThat(out).filteredOn(o -> o.startsWith("failed: r2dbc pool of 1: no connection within 1.0 s (")).hasSize(2);
            // after the one wait it names: r2dbc-pool's default acquireRetry of 1 waited twice (2 s) before failing
            assertThat(failedAfterSeconds).hasSize(2).allSatisfy(t -> assertThat(t).isBetween(0.9, 1.8));
            PoolStats r2dbc = backend.poolStats().getLast();
            assertThat(r2dbc.client()).isEqualTo("r2dbc");
            assertThat(r2dbc.calls()).isEqualTo(1);
            assertThat(r2dbc.failedWaits()).isEqualTo(2);
            assertThat(r2dbc.connectFailures()).as("the server was up: the pool was the limit").isZero();
            assertThat(r2dbc.peakInUse()).isEqualTo(1);
            // and the pool serves again once the slow call is done
            assertThat(backend.callAsync(call(41, new Operation.Sql("select name from blocklab_accounts where id = $1")))
                    .get(30, TimeUnit.SECONDS)).isEqualTo("account-42");
        }
    }

    @Test
    void poolLargerThanTheServerTakes_isSaidInTheFillsLine_namingR2dbc() {
        // max_connections 20 against HikariCP's 15 and R2DBC's 15: the R2DBC pool, filled second, falls short
        try (EmbeddedPostgres pg = EmbeddedPostgres.start(20)) {
            DatastoreSettings settings = new DatastoreSettings(true, pg.url(), false, null, 15, 1, TimeUnit.SECONDS.toNanos(1))
                    .withPgAsyncClient(PgAsyncClient.R2DBC);
            try (DatastoreBackend backend = new DatastoreBackend(settings, DatastoreSettings.postgres(pg.url()), null)) {
                String line = backend.fillPools().orElseThrow();
                assertThat(line).startsWith("db pool 15: PostgreSQL at " + DatastoreSettings.postgres(pg.url()) + " opened 15 of 15 HikariCP and ")
                        .contains(" of 15 R2DBC connections (").contains("too many clients").contains("(30 in all)");
                int r2dbcOpen = Integer.parseInt(line.replaceAll(".* and (\\d+) of 15 R2DBC.*", "$1"));
                assertThat(r2dbcOpen).isLessThan(15);
            }
        }
    }
}
