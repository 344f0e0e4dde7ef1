package dev.blocklab.datastore;

import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Operation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Both clients of each real server, against the real servers: same statement, same answer. */
class DatastoreBackendIT {

    private static CallInvocation call(long requestId, Operation operation) {
        return new CallInvocation("step", requestId, 0, 0, 0L, null, operation);
    }

    private static Object[] both(DatastoreBackend backend, CallInvocation call) throws Exception {
        return new Object[]{backend.callBlocking(call), backend.callAsync(call).get(30, TimeUnit.SECONDS)};
    }

    @Test
    void sqlSelect_bothClientsReadTheRequestsRow() throws Exception {
        try (DatastoreBackend backend = (DatastoreBackend) TestServers.shared().newBackend()) {
            Object[] answers = both(backend, call(41, new Operation.Sql("select name from blocklab_accounts where id = $1")));
            assertThat(answers).containsExactly("account-42", "account-42");
            assertThat(both(backend, call(7, new Operation.Sql("select balance from blocklab_accounts where id = $1"))))
                    .containsExactly(1000L, 1000L);
            assertThat(backend.poolStats()).extracting(PoolStats::client).containsExactly("jdbc+hikari", "vertx-pg");
        }
    }

    @Test
    void sqlSleepAndUpdate_answerRowCounts() throws Exception {
        try (DatastoreBackend backend = (DatastoreBackend) TestServers.shared().newBackend()) {
            assertThat(both(backend, call(0, new Operation.Sql("select pg_sleep(0.01)")))).containsExactly(1L, 1L);
            assertThat(both(backend, call(999, new Operation.Sql("update blocklab_accounts set balance = balance where id = $1"))))
                    .containsExactly(1L, 1L);
            assertThat(both(backend, call(0, new Operation.Sql("select id from blocklab_accounts where id < 0")))).containsExactly(0L, 0L);
        }
    }

    @Test
    void sqlError_failsTheCallWithTheServersMessage() {
        try (DatastoreBackend backend = (DatastoreBackend) TestServers.shared().newBackend()) {
            CallInvocation bad = call(0, new Operation.Sql("select * from no_such_table"));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.callBlocking(bad)).hasMessageContaining("no_such_table");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.callAsync(bad).get(30, TimeUnit.SECONDS))
                    .hasMessageContaining("no_such_table");
        }
    }

    @Test
    void redisCommands_bothClientsGiveTheSameReplies() throws Exception {
        try (DatastoreBackend backend = (DatastoreBackend) TestServers.shared().newBackend()) {
            assertThat(both(backend, call(4, Operation.Redis.parse("GET account:{row}", 1)))).containsExactly("account-5", "account-5");
            assertThat(both(backend, call(998, Operation.Redis.parse("GET account:{row}", 3))))
                    .containsExactly("[account-999, account-1000, account-1]", "[account-999, account-1000, account-1]");
            assertThat(both(backend, call(0, Operation.Redis.parse("MGET account:{row} nokey", 1))))
                    .containsExactly("[account-1, (nil)]", "[account-1, (nil)]");
            assertThat(both(backend, call(0, Operation.Redis.parse("SET blocklab:test:{row} x", 1)))).containsExactly("OK", "OK");
            assertThat(both(backend, call(0, Operation.Redis.parse("INCR blocklab:counter:{row}", 1)))[1]).isInstanceOf(Long.class);
            assertThat(backend.poolStats()).extracting(PoolStats::client).containsExactly("jedis", "lettuce (one shared connection)");
        }
    }

    @Test
    void redisErrorReply_failsTheCall_bothClients_pipelinedToo() {
        try (DatastoreBackend backend = (DatastoreBackend) TestServers.shared().newBackend()) {
            for (int count : new int[]{1, 3}) {
                CallInvocation bad = call(0, Operation.Redis.parse("INCR account:{row}", count));   // "account-1" is no integer
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.callBlocking(bad))
                        .as("jedis, count " + count).hasMessageContaining("not an integer");
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.callAsync(bad).get(30, TimeUnit.SECONDS))
                        .as("lettuce, count " + count).hasMessageContaining("not an integer");
            }
        }
    }

    @Test
    void jdbcPool_neverHoldsMoreConnectionsThanItsSize_andCallersWait() throws Exception {
        DatastoreSettings settings = TestServers.reaching(2, 2, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS);
        Datastores d = TestServers.shared();
        try (DatastoreBackend backend = new DatastoreBackend(settings, DatastoreSettings.postgres(settings.postgresUrl()), null);
             var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Object>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                long id = i;
                calls.add(threads.submit(() -> backend.callBlocking(call(id, new Operation.Sql("select pg_sleep(0.1)")))));
            }
            for (Future<Object> f : calls) assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(1L);
            PoolStats jdbc = backend.poolStats().getFirst();
            assertThat(jdbc.peakInUse()).isEqualTo(2);
            assertThat(jdbc.calls()).isEqualTo(6);
            // six calls of 100 ms through two connections: the last two waited for two calls before them
            assertThat(jdbc.maxWaitMillis()).isGreaterThan(100);
            assertThat(d).isNotNull();
        }
    }
}
