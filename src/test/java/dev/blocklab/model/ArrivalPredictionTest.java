package dev.blocklab.model;

import dev.blocklab.load.Pacer;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.RequestTimes;
import org.junit.jupiter.api.Test;

import java.util.List;

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
    void noTimeToPredictFrom_namesNoCapacity() {
        // 20 Redis GETs declared with no latency: "open 500/s within the capacity 10,000,000,000,000/s"
        Prediction none = new Prediction(0, "ceil(1 / 8) x 0ms");
        assertThat(ArrivalPrediction.capacityPerSecond(10_000, none)).isInfinite();
        Prediction p = ArrivalPrediction.of(none, Double.POSITIVE_INFINITY, new Arrival.Open(500, 3 * S), 1, null, 0);
        assertThat(p.nanos()).isZero();
        assertThat(p.basis()).isEqualTo("open 500/s for 3s: one request is predicted to take no time (ceil(1 / 8) x 0ms), "
                + "so the formula gives no capacity, latency or throughput");
    }

    @Test
    void open_belowCapacity_meanIsOneRequest_textGivesThroughputAndLittle() {
        Prediction p = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(50, 10 * S), 1, null, 0);
        assertThat(p.nanos()).isEqualTo(100 * MS);
        assertThat(p.basis()).contains("open 50/s within the capacity 80/s", "mean latency 100ms", "throughput 50/s",
                "in flight 50/s x 100ms = 5.00 (Little)");
    }

    @Test
    void rates_areWrittenAsEveryReportWritesThem_theCountInFlightIsNot() {
        // a rate is Rates.number's: 2.5/s (not 2.50/s), 3/s (not 3.00/s), 2,000/s; Little's count keeps its digits
        Prediction one = new Prediction(S, "1s (one thread per request)", RequestTimes.Path.SERIAL);
        assertThat(ArrivalPrediction.of(one, 3, new Arrival.Open(2.5, 10 * S), 1, null, 0).basis())
                .contains("open 2.5/s within the capacity 3/s", "throughput 2.5/s", "in flight 2.5/s x 1s = 2.50 (Little)");
        assertThat(ArrivalPrediction.of(one, 2, new Arrival.Closed(3, 10 * S), 1, null, 0).basis())
                .contains("throughput the capacity (3 / 1s = 3/s is more) = 2/s", "mean latency 3 / 2/s = 1.5s");
        assertThat(ArrivalPrediction.of(oneAlone, 4000, new Arrival.Open(2000, 10 * S), 1, null, 0).basis())
                .contains("open 2,000/s within the capacity 4,000/s", "in flight 2,000/s x 100ms = 200 (Little)");
    }

    @Test
    void open_aboveCapacity_waitIsTheBacklogOverTheCapacity() {
        // fixed:10, 1 s a request, 20/s for 5 s (smoke test #28): request 10j+i arrives at (10j+i)/20 s and starts
        // at j + i/20 s, so it waits j/2 s; the mean over j = 0..9 is 2.25 s, mean latency 3.25 s (measured 3.26 s).
        // The old formula, T x (1 - C/r) / 2 = 1.25 s, gave 2.25 s.
        Prediction one = new Prediction(S, "1s (one thread per request)", RequestTimes.Path.SERIAL);
        Prediction p = ArrivalPrediction.of(one, 10, new Arrival.Open(20, 5 * S), 1, null, 0);
        assertThat(p.nanos()).isEqualTo(3_250 * MS);
        assertThat(p.basis()).contains("above the capacity 10/s", "100 arrivals (10 servers each holding a request 1s: the capacity x one request's time, rounded, and that count / the capacity)",
                "mean wait is 2.25s", "continuous form 5s x (20 / 10 - 1) / 2 = 2.5s", "= 3.25s", "throughput 10/s");
    }

    @Test
    void open_aboveCapacity_requeued_leavesOnceTheRequestsThatArrivedBeforeHaveStarted() {
        // one server, 1 s a request, 2/s for 2 s: arrivals at 0, 0.5, 1, 1.5 s start at 0, 1, 2, 3 s.
        // Leaving as their calls end they wait 0, 0.5, 1, 1.5 s: mean 0.75 s, latency 1.75 s.
        // Queued again once: request 0's calls end at 1 s, when request 2 has arrived, which starts at 2 s, so it
        // leaves at 2 s; request 1 ends at 2 s behind request 3 (starts at 3 s), request 2 at 3 s, request 3 at 4 s:
        // they wait 1, 1.5, 1, 1.5 s beyond their own second, mean 1.25 s, latency 2.25 s.
        // Queued again twice: request 0 then waits at 2 s behind request 3, which starts at 3 s: 2, 1.5, 1, 1.5 s,
        // mean 1.5 s, latency 2.5 s.
        Prediction own = new Prediction(S, "1s", RequestTimes.Path.SERIAL);
        Arrival.Open open = new Arrival.Open(2, 2 * S);
        assertThat(ArrivalPrediction.of(own, 1, open, 1, null, 0).nanos()).isEqualTo(1_750 * MS);
        Prediction once = ArrivalPrediction.of(own.withRequeues(1), 1, open, 1, null, 0);
        assertThat(once.nanos()).isEqualTo(2_250 * MS);
        assertThat(once.basis()).contains("once its calls have ended its remaining work queues again behind the calls of every request that arrived by then",
                "the mean wait is 1.25s", "mean latency 1s + 1.25s = 2.25s").doesNotContain("continuous form");
        assertThat(ArrivalPrediction.of(own.withRequeues(2), 1, open, 1, null, 0).nanos()).isEqualTo(2_500 * MS);
        // within capacity nothing queues: one request's time however often it would queue again
        assertThat(ArrivalPrediction.of(own.withRequeues(2), 10, open, 1, null, 0).nanos()).isEqualTo(S);
    }

    @Test
    void open_aboveCapacity_growsWithTheOverload() {
        // 160/s against 80/s for 10 s, 100 ms a request: the backlog reaches 800, mean wait about 10 s x (2 - 1) / 2 = 5 s
        Prediction p = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(160, 10 * S), 1, null, 0);
        assertThat(p.nanos()).isBetween(4_900 * MS, 5_200 * MS);
    }

    @Test
    void open_timeScaleMultipliesTheRate() {
        Prediction scaled = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(16, 100 * S), 10, null, 0);
        Prediction real = ArrivalPrediction.of(oneAlone, 80, new Arrival.Open(160, 10 * S), 1, null, 0);
        assertThat(scaled.nanos()).isEqualTo(real.nanos());
    }

    @Test
    void open_steps_integrateTheSchedule() {
        // 5/s for 5 s (within 10/s), then 20/s for 5 s: only the second step's 100 requests queue, each waiting about
        // 5 s x (2 - 1) / 2 = 2.5 s on average, so the mean over all 125 is near 1 s + 2.5 s x 100 / 125 = 3 s.
        // The schedule's mean rate (12.5/s) in the constant formula gave 1 s + 10 s x (1 - 10 / 12.5) / 2 = 2 s.
        Prediction one = new Prediction(S, "1s", RequestTimes.Path.SERIAL);
        Prediction p = ArrivalPrediction.of(one, 10, new Arrival.Open(new Pacer.Steps(List.of(5.0, 20.0), 5 * S), 10 * S), 1, null, 0);
        assertThat(p.nanos()).isBetween(2_700 * MS, 3_100 * MS);
        assertThat(p.basis()).contains("12.5/s on average (20/s at its peak) above the capacity 10/s");
    }

    @Test
    void open_rampPeakingAboveCapacity_queues_whileItsMeanRateIsBelow() {
        // 1/s..19/s over 10 s: mean 10/s = the capacity, but the second half arrives faster than 10/s and queues
        Prediction one = new Prediction(S, "1s", RequestTimes.Path.SERIAL);
        Prediction p = ArrivalPrediction.of(one, 10, new Arrival.Open(new Pacer.LinearRamp(1, 19, 10 * S), 10 * S), 1, null, 0);
        assertThat(p.nanos()).isGreaterThan(1_200 * MS).isLessThan(3_000 * MS);
    }

    @Test
    void open_longSchedule_isThinned_toTheSameMean() {
        // 400 000/s against 200 000/s for 10 s: 4 million arrivals, thinned; the mean wait is still about 10 s x (2 - 1) / 2
        Prediction one = new Prediction(MS, "1ms", RequestTimes.Path.SERIAL);
        Prediction p = ArrivalPrediction.of(one, 200_000, new Arrival.Open(400_000, 10 * S), 1, null, 0);
        assertThat(p.nanos()).isBetween(4_900 * MS, 5_100 * MS);
    }

    @Test
    void closed_usersOverLatency_boundByCapacity() {
        Prediction light = ArrivalPrediction.of(oneAlone, 80, new Arrival.Closed(4, 10 * S), 1, null, 0);
        assertThat(light.nanos()).isEqualTo(100 * MS); // 4 / 0.1 s = 40/s < 80/s
        assertThat(light.basis()).contains("throughput 4 / 100ms = 40/s");
        Prediction heavy = ArrivalPrediction.of(oneAlone, 80, new Arrival.Closed(50, 10 * S), 1, null, 0);
        assertThat(heavy.nanos()).isEqualTo(625 * MS); // 50 users / 80/s
        assertThat(heavy.basis()).contains("the capacity", "= 80/s", "= 625ms");
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
