package dev.blocklab.datastore;

import dev.blocklab.result.PoolStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PoolGaugeTest {
    @Test
    void aSharedConnection_countsItsCallsInFlight_notConnectionsHeld() {
        // Lettuce's one connection read "pool 1: 1500 calls, peak 0 in use": its calls were counted, never held
        PoolGauge shared = new PoolGauge("lettuce" + PoolStats.SHARED, 1);
        shared.sent();
        shared.sent();
        shared.released();
        shared.sent();
        assertThat(shared.inUse()).isEqualTo(2);
        PoolStats stats = shared.stats();
        assertThat(stats.calls()).isEqualTo(3);
        assertThat(stats.peakInUse()).isEqualTo(2);
        assertThat(stats.line()).isEqualTo("lettuce (one shared connection): 3 calls, 0 timed out queued on it, 0 connect failures, peak 2 calls in flight on it (no pool to wait for)");
    }

    @Test
    void aPool_countsConnectionsHeldAndWaits() {
        PoolGauge pool = new PoolGauge("jedis", 8);
        pool.acquired(2_000_000);
        pool.acquired(0);
        pool.released();
        pool.noConnection(NoConnection.WAIT_TIMEOUT);
        assertThat(pool.stats().line()).startsWith("jedis pool 8: 2 calls, 1 failed waits, 0 connect failures, peak 2 in use, wait for a connection mean 1.0 ms")
                .endsWith("; failed waits: no connection came free within the pool timeout (the pool is the limit)");
    }

    @Test
    void aConnectionThatCouldNotBeOpened_isAConnectFailure_notAFailedWait() {
        PoolGauge pool = new PoolGauge("jedis", 4);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.acquire(() -> {
            throw new redis.clients.jedis.exceptions.JedisConnectionException("Failed to connect", new java.net.ConnectException("Connection refused"));
        }, NoConnection::jedis)).isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.acquire(() -> {
            throw new redis.clients.jedis.exceptions.JedisException("Could not get a resource from the pool",
                    new java.util.NoSuchElementException("Timeout waiting for idle object, borrowMaxWaitDuration=PT0.3S"));
        }, NoConnection::jedis)).isInstanceOf(redis.clients.jedis.exceptions.JedisException.class);
        PoolStats stats = pool.stats();
        assertThat(stats.failedWaits()).isEqualTo(1);
        assertThat(stats.connectFailures()).isEqualTo(1);
        assertThat(stats.calls()).isZero();
        assertThat(pool.statsIf(true)).as("a pool whose only calls failed was used").isPresent();
        assertThat(stats.line()).startsWith("jedis pool 4: 0 calls, 1 failed waits, 1 connect failures, peak 0 in use")
                .endsWith("; failed waits: no connection came free within the pool timeout (the pool is the limit)"
                        + "; connect failures: the server refused the connection or was gone (not the pool's size)");
    }

    /** HikariCP's path: the failure is read once, and that one reading is both counted and given to the client's words. */
    @Test
    void aRefusedCall_isToldOnce_forTheCountAndTheClientsWords() {
        PoolGauge pool = new PoolGauge("jdbc+hikari", 4);
        java.util.concurrent.atomic.AtomicInteger told = new java.util.concurrent.atomic.AtomicInteger();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> pool.acquire(() -> {
            throw new java.sql.SQLTransientConnectionException("HikariPool-1 - Connection is not available, request timed out after 300ms");
        }, e -> {
            told.incrementAndGet();
            return NoConnection.hikari(e);
        }, (e, why) -> {
            throw new java.sql.SQLTransientConnectionException("jdbc+hikari pool of 4: " + why, e);
        })).isInstanceOf(java.sql.SQLTransientConnectionException.class).hasMessage("jdbc+hikari pool of 4: WAIT_TIMEOUT");
        assertThat(told).hasValue(1);
        assertThat(pool.stats().failedWaits()).isEqualTo(1);
        assertThat(pool.stats().connectFailures()).isZero();
    }

    @Test
    void aSharedConnection_timedOutCommandsAndALostConnection_areToldApart_errorRepliesAreNeither() {
        PoolGauge shared = new PoolGauge("lettuce" + PoolStats.SHARED, 1);
        NoConnection.lettuce(new java.util.concurrent.CompletionException(new io.lettuce.core.RedisCommandTimeoutException("Command timed out after 1 second(s)")))
                .ifPresent(shared::noConnection);
        NoConnection.lettuce(new io.lettuce.core.RedisException("Connection closed")).ifPresent(shared::noConnection);
        NoConnection.lettuce(new io.lettuce.core.RedisCommandExecutionException("WRONGTYPE Operation against a key")).ifPresent(shared::noConnection);
        PoolStats stats = shared.stats();
        assertThat(stats.failedWaits()).isEqualTo(1);
        assertThat(stats.connectFailures()).isEqualTo(1);
        assertThat(stats.line()).startsWith("lettuce (one shared connection): 0 calls, 1 timed out queued on it, 1 connect failures")
                .contains("; timed out: the command timeout passed while queued on it").contains("; connect failures: the server refused");
    }
}
