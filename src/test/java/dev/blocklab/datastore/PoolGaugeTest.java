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
        assertThat(stats.line()).isEqualTo("lettuce (one shared connection): 3 calls, 0 failed, peak 2 calls in flight on it (no pool to wait for)");
    }

    @Test
    void aPool_countsConnectionsHeldAndWaits() {
        PoolGauge pool = new PoolGauge("jedis", 8);
        pool.acquired(2_000_000);
        pool.acquired(0);
        pool.released();
        pool.failedWait();
        assertThat(pool.stats().line()).startsWith("jedis pool 8: 2 calls, 1 failed waits, peak 2 in use, wait for a connection mean 1.0 ms");
    }
}
