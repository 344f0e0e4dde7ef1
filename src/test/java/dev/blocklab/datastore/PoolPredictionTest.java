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
        assertThat(new PoolPrediction(10, 4 * MS).basis()).isEqualTo("10 connections / 4 ms held per request = 2,500 req/s");
    }

    @Test
    void poolBoundModel_predictsTheLargerOfPoolWavesAndTheModelsOwn() {
        // 100 requests of one 100 ms query, no CPU work: the pool of 10 needs 10 waves of 100 ms
        dev.blocklab.model.Demand batch = new dev.blocklab.model.Demand(100, 100 * MS, 100 * MS, 100 * MS, 1, 0, 2);
        PoolPrediction pool = new PoolPrediction(10, 100 * MS);
        try (var backend = new dev.blocklab.backend.SimulatedBackend();
             var virtual = new PoolBoundModel(dev.blocklab.model.Models.create("virtual", new dev.blocklab.model.ModelContext(backend, 8)), pool);
             var fixed4 = new PoolBoundModel(dev.blocklab.model.Models.create("fixed:4", new dev.blocklab.model.ModelContext(backend, 8)), pool);
             var unbound = new PoolBoundModel(dev.blocklab.model.Models.create("virtual", new dev.blocklab.model.ModelContext(backend, 8)),
                     new PoolPrediction(10, 0))) {
            assertThat(virtual.predict(batch).nanos()).isEqualTo(1000 * MS);          // the pool, not the threads
            assertThat(virtual.predict(batch).basis()).startsWith("pool: ceil(100 / 10 connections) x 100 ms held");
            assertThat(fixed4.predict(batch).nanos()).isEqualTo(2500 * MS);           // 4 threads bind before 10 connections
            assertThat(unbound.predict(batch).nanos()).isEqualTo(100 * MS);           // no SQL hold time: the model's own
        }
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

    private static Step.Call redis(String name, String command, long latencyMillis) {
        return new Step.Call(name, List.of(), new Latency.Fixed(latencyMillis * MS), new Value.Constant(0L), 0, null, 0, Operation.Redis.parse(command, 1));
    }

    @Test
    void forRedis_blockingModelsHoldAJedisConnectionPerStep_nonBlockingOnesShareLettucesOnlyForCommandsThatWait() {
        Graph g = new Graph(0L, List.of(redis("wait", "BLPOP q 0.05", 50), redis("read", "GET k", 2),
                redis("stream", "XREAD BLOCK 30 STREAMS s $", 30), Step.Call.fixed("c", 500 * MS, 1L),
                new Step.Call("sql", List.of(), new Latency.Fixed(100 * MS), new Value.Constant(0L), 0, null, 0, new Operation.Sql("select 1"))));
        assertThat(PoolPrediction.forRedis(g, 8, false)).as("Jedis: every Redis step holds a pooled connection").isEqualTo(new PoolPrediction(8, 82 * MS));
        assertThat(PoolPrediction.forRedis(g, 8, true)).as("Lettuce: one connection, held by BLPOP and XREAD BLOCK").isEqualTo(new PoolPrediction(1, 80 * MS));
        assertThat(PoolPrediction.forRedis(new Graph(0L, List.of(redis("read", "GET k", 2))), 8, true).holdNanos()).as("no command waits: no bound").isZero();
    }

    @Test
    void poolBounds_followTheModelsCallForm_andBoundItsPrediction() {
        Graph g = new Graph(0L, List.of(redis("wait", "BLPOP q 0.05", 50)));
        DatastoreSettings redisOnly = new DatastoreSettings(false, null, true, null, 10, 4, DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS);
        PoolBounds bounds = new PoolBounds(g, redisOnly);
        var fixed8 = dev.blocklab.registry.Registry.parse("fixed:8");
        var cf = dev.blocklab.registry.Registry.parse("cf-nonblocking:2");
        assertThat(bounds.of(fixed8)).containsExactly(new PoolBounds.Bound("Jedis pool", new PoolPrediction(4, 50 * MS)));
        assertThat(bounds.of(cf)).containsExactly(new PoolBounds.Bound("Lettuce's one connection", new PoolPrediction(1, 50 * MS)));
        // 40 requests: fixed:8's own formula says 5 waves; the Jedis pool of 4 makes it 10; Lettuce's one connection, 40
        dev.blocklab.model.Demand batch = new dev.blocklab.model.Demand(40, 50 * MS, 50 * MS, 50 * MS, 1, 0, 2);
        assertThat(bounds.bound(fixed8.predict(batch, 0), batch, fixed8).nanos()).isEqualTo(500 * MS);
        assertThat(bounds.bound(cf.predict(batch, 0), batch, cf).basis()).startsWith("Lettuce's one connection: ceil(40 / 1 connection) x 50 ms held");
        assertThat(bounds.bound(cf.predict(batch, 0), batch, cf).nanos()).isEqualTo(2000 * MS);
    }
}
