package dev.blocklab.datastore;

import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Operation;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Little's law for a pool, as a table of pure arithmetic. */
class PoolPredictionTest {
    private static final long MS = 1_000_000L;

    @Test
    void capacity_isConnectionsOverHoldTime() {
        assertThat(new PoolPrediction(10, 100 * MS).maxRequestsPerSecond()).isCloseTo(100, within(1e-9));
        assertThat(new PoolPrediction(50, 100 * MS).maxRequestsPerSecond()).isCloseTo(500, within(1e-9));
        assertThat(new PoolPrediction(90, 100 * MS).throughputPerSecond(300)).isCloseTo(300, within(1e-9));
        assertThat(new PoolPrediction(10, 100 * MS).throughputPerSecond(300)).isCloseTo(100, within(1e-9));
        assertThat(new PoolPrediction(50, 100 * MS).connectionsInUse(300)).isCloseTo(30, within(1e-9));
        assertThat(new PoolPrediction(10, 100 * MS).connectionsInUse(300)).isCloseTo(10, within(1e-9));
        assertThat(new PoolPrediction(10, 0).maxRequestsPerSecond()).isInfinite();
        assertThat(new PoolPrediction(10, 100 * MS).basis()).isEqualTo("10 connections / 100 ms held per request = 100 req/s");
    }

    @Test
    void forSql_sumsOnlyTheSqlStepsHoldTime() {
        Step.Call a = new Step.Call("a", List.of(), new Latency.Fixed(100 * MS), new Value.Constant(0L), 0, null, 0, new Operation.Sql("select pg_sleep(0.1)"));
        Step.Call b = new Step.Call("b", List.of(), new Latency.Fixed(30 * MS), new Value.Constant(0L), 0, null, 0, new Operation.Sql("select 1"));
        Step.Call simulated = Step.Call.fixed("c", 500 * MS, 1L);
        Step.Call redis = new Step.Call("d", List.of(), new Latency.Fixed(7 * MS), new Value.Constant(0L), 0, null, 0, Operation.Redis.parse("GET k", 1));
        PoolPrediction p = PoolPrediction.forSql(new Graph(0L, List.of(a, b, simulated, redis)), 13);
        assertThat(p).isEqualTo(new PoolPrediction(13, 130 * MS));
    }
}
