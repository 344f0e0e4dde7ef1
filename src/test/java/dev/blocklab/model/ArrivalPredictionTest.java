package dev.blocklab.model;

import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.RequestTimes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArrivalPredictionTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private final Prediction oneAlone = new Prediction(100 * MS, "100ms (one thread per request)", RequestTimes.Path.SERIAL);

    @Test
    void capacity_isTheBatchFormulasThroughput() {
        // fixed:8, 100 ms a request: 10 000 requests in 1250 waves of 100 ms = 125 s -> 80/s
        assertThat(ArrivalPrediction.capacityPerSecond(10_000, new Prediction(125 * S, "waves"))).isEqualTo(80.0);
    }

    @Test
    void open_belowCapacity_meanIsOneRequest_textGivesThroughputAndLittle() {
        Prediction p = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(50, 10 * S), 1, null, 0);
        assertThat(p.nanos()).isEqualTo(100 * MS);
        assertThat(p.basis()).contains("open 50.0/s within the capacity 80.0/s", "mean latency 100ms", "throughput 50.0/s",
                "in flight 50.0/s x 100ms = 5.00 (Little)");
    }

    @Test
    void open_aboveCapacity_theQueueGrowsForTheRun() {
        // 160/s against 80/s for 10 s: half the requests wait, mean wait 10 s x (1 - 1/2) / 2 = 2.5 s
        Prediction p = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(160, 10 * S), 1, null, 0);
        assertThat(p.nanos()).isEqualTo(2_600 * MS);
        assertThat(p.basis()).contains("above the capacity 80.0/s", "= 2.6s", "throughput 80.0/s");
    }

    @Test
    void open_timeScaleMultipliesTheRate() {
        Prediction p = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(16, 100 * S), 10, null, 0);
        assertThat(p.nanos()).isEqualTo(2_600 * MS);
    }

    @Test
    void closed_usersOverLatency_boundByCapacity() {
        Prediction light = ArrivalPrediction.of(oneAlone, 80, new Arrival.Closed(4, 10 * S), 1, null, 0);
        assertThat(light.nanos()).isEqualTo(100 * MS); // 4 / 0.1 s = 40/s < 80/s
        assertThat(light.basis()).contains("throughput 4 / 100ms = 40.0/s");
        Prediction heavy = ArrivalPrediction.of(oneAlone, 80, new Arrival.Closed(50, 10 * S), 1, null, 0);
        assertThat(heavy.nanos()).isEqualTo(625 * MS); // 50 users / 80/s
        assertThat(heavy.basis()).contains("the capacity", "= 80.0/s", "= 625ms");
    }

    @Test
    void percentiles_readTheDrawnTimesOnTheModelsPath() {
        long[] serial = new long[100];
        for (int i = 0; i < 100; i++) serial[i] = (i + 1) * MS;
        RequestTimes drawn = new RequestTimes(serial, serial, serial);
        Prediction p = ArrivalPrediction.of(oneAlone, 1e6, new Arrival.Open(10, S), 1, drawn, 0);
        assertThat(p.basis()).contains("p50 50ms, p99 99ms (drawn)");
    }

    @Test
    void batch_isRefused() {
        assertThatThrownBy(() -> ArrivalPrediction.of(oneAlone, 1, new Arrival.Batch(1), 1, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
