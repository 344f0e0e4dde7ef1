package dev.blocklab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.blocklab.driver.Progress;
import dev.blocklab.report.Jsons;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.result.Chart;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.server.ServerProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The prediction from pool sizes as a table, the scaled plan, and a tiny end-to-end run over real sockets. */
class ProfilePageExperimentTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    /**
     * threads, jobs (ms, '+' between jobs), rate/s, duration s, timeout ms, expected requests, expected success ratio,
     * expected median latency ms. Worked by hand from the model: one job of S on c threads at rate r makes request n
     * wait (S - c / r) x floor(n / c).
     */
    @ParameterizedTest(name = "{0} threads, jobs {1} ms, {2}/s for {3} s, timeout {4} ms")
    @CsvSource({
            // the talk's sync-blocking: 8 threads, 1 s each, 10/s: wait 0.2 s x floor(n/8) < 2 s for n < 80
            "8,          1000,        10,   10, 3000, 100,  0.80,  2200",
            // the same at time scale 10 (times / 10, rate x 10): the same ratio
            "8,          100,         100,  1,  300,  100,  0.80,  220",
            // async-blocking on one common-pool thread: request n done at n + 1 s, arrived n / 10: n <= 2
            "1,          200+500+300, 10,   10, 3000, 100,  0.03,  3000",
            // on the talk's seven common-pool threads: the calls run side by side (500 ms), 7 requests/s of capacity;
            // the wait grows 3/7 s per second, passing 2.5 s after 5.8 s (58 %), plus the seven idle threads at the start
            "7,          200+500+300, 10,   10, 3000, 100,  0.59,  2600",
            // non-blocking: every call starts on arrival, latency = the longest call
            "2147483647, 200+500+300, 1000, 10, 3000, 10000, 1.0,  500",
            // threads:1000 at 1000/s: exactly at capacity, nobody waits
            "1000,       1000,        1000, 10, 3000, 10000, 1.0,  1000",
            // under capacity: no queue
            "8,          1000,        4,    10, 3000, 40,   1.0,   1000",
            // a timeout shorter than the work: nothing succeeds
            "8,          1000,        1,    5,  900,  5,    0.0,   900",
    })
    void predict_fifoPoolWithTimeouts(int threads, String jobs, double rate, long durationSeconds, long timeoutMillis,
                                      long requests, double successRatio, long medianMillis) {
        List<Long> jobNanos = Arrays.stream(jobs.split("\\+")).map(j -> Long.parseLong(j.trim()) * MS).toList();
        PoolQueuePrediction.Outcome o = PoolQueuePrediction.predict(threads, jobNanos, rate, durationSeconds * S, timeoutMillis * MS);
        assertThat(o.requests()).isEqualTo(requests);
        assertThat(o.successRatio()).isCloseTo(successRatio, within(0.005));
        assertThat(o.medianLatencyNanos() / (double) MS).isCloseTo(medianMillis, within(medianMillis * 0.06 + 1));
    }

    @Test
    void predict_scaleInvariantAndMonotoneInThreads() {
        double previous = -1;
        for (int threads = 1; threads <= 12; threads++) {
            double real = PoolQueuePrediction.predict(threads, List.of(S), 10, 10 * S, 3 * S).successRatio();
            double scaled = PoolQueuePrediction.predict(threads, List.of(S / 100), 1000, 10 * S / 100, 3 * S / 100).successRatio();
            assertThat(scaled).as("threads %d at time scale 100", threads).isEqualTo(real);
            assertThat(real).as("more threads never lose requests").isGreaterThanOrEqualTo(previous);
            previous = real;
        }
        assertThat(previous).isEqualTo(1.0);
    }

    @Test
    void holdFactorFitting_findsTheFactorThatMadeTheRatio() {
        for (double factor : new double[]{1.1, 1.5, 2.5}) {
            long hold = Math.round(S * factor);
            double measured = PoolQueuePrediction.predict(8, List.of(hold), 10, 10 * S, 3 * S).successRatio();
            double fitted = PoolQueuePrediction.holdFactorFitting(measured, 8, List.of(S), 10, 10 * S, 3 * S);
            // the ratio moves in steps of 1 %, so several factors give it: the fit is the smallest, at most the true one
            assertThat(fitted).as("factor %s", factor).isLessThanOrEqualTo(factor * 1.001).isGreaterThan(1.0);
            assertThat(PoolQueuePrediction.predict(8, List.of(Math.round(S * fitted)), 10, 10 * S, 3 * S).successRatio())
                    .isEqualTo(measured);
        }
        assertThat(PoolQueuePrediction.holdFactorFitting(0.95, 8, List.of(S), 10, 10 * S, 3 * S)).as("already below").isEqualTo(1.0);
    }

    @Test
    void predict_rejectsNonsense() {
        assertThatThrownBy(() -> PoolQueuePrediction.predict(0, List.of(S), 10, S, S)).hasMessageContaining("threads");
        assertThatThrownBy(() -> PoolQueuePrediction.predict(1, List.of(), 10, S, S)).hasMessageContaining("job");
        assertThatThrownBy(() -> PoolQueuePrediction.predict(1, List.of(S), 0, S, S)).hasMessageContaining("rate");
    }

    @Test
    void description_saysWhatThisScaleRanThenTheTalksSetup() {
        String quick = ProfilePageExperiment.description(ProfilePageExperiment.plan(ProfilePageExperiment.TALK, 10, 10 * S, 2), 10);
        assertThat(quick).contains(": /sync-blocking, /async-blocking, /async-non-blocking under play-2.5 at 100/s; "
                        + "/async-non-blocking under play-2.5 at 1,000/s; /sync-blocking under threads:100 at 1,000/s (the talk's ")
                .contains("/sync-blocking under threads:1000 at 1,000/s, with delays / 10)");
        String full = ProfilePageExperiment.description(ProfilePageExperiment.plan(ProfilePageExperiment.TALK, 1, 10 * S, 2), 1);
        assertThat(full).contains("under play-2.5 at 10/s;").contains("threads:1000 at 1,000/s").doesNotContain("the talk's /");
    }

    @Test
    void plan_keepsLoadToCapacityWhenTheRateIsCapped() {
        List<ProfilePageExperiment.Planned> quick = ProfilePageExperiment.plan(ProfilePageExperiment.TALK, 10, 10 * S, 2);
        assertThat(quick).extracting(ProfilePageExperiment.Planned::ratePerSecond).containsExactly(100.0, 100.0, 100.0, 1000.0, 1000.0);
        assertThat(quick).extracting(p -> p.profile().name()).containsExactly("play-2.5", "play-2.5", "play-2.5", "play-2.5", "threads:100");
        assertThat(quick.getFirst().durationNanos()).isEqualTo(S);
        assertThat(quick.getFirst().timeoutNanos()).isEqualTo(300 * MS);
        List<ProfilePageExperiment.Planned> full = ProfilePageExperiment.plan(ProfilePageExperiment.TALK, 1, 10 * S, 2);
        assertThat(full).extracting(ProfilePageExperiment.Planned::ratePerSecond).containsExactly(10.0, 10.0, 10.0, 1000.0, 1000.0);
        assertThat(full.getLast().profile()).isEqualTo(new ServerProfile.Threads(1000));
        for (int i = 0; i < full.size(); i++) {
            ProfilePageExperiment.Demand real = ProfilePageExperiment.demand(full.get(i).endpoint(), full.get(i).profile(), 1, 1);
            ProfilePageExperiment.Demand scaled = ProfilePageExperiment.demand(quick.get(i).endpoint(), quick.get(i).profile(), 1, 10);
            if (real.threads() == PoolQueuePrediction.NO_THREAD_HELD) continue;
            double realLoad = full.get(i).ratePerSecond() * real.jobNanos().stream().mapToLong(Long::longValue).sum() / 1e9 / real.threads();
            double scaledLoad = quick.get(i).ratePerSecond() * scaled.jobNanos().stream().mapToLong(Long::longValue).sum() / 1e9 / scaled.threads();
            assertThat(scaledLoad).as(full.get(i).label()).isCloseTo(realLoad, within(1e-9));
        }
    }

    /**
     * The talk's three 10/s attacks at time scale 10 (calls of 20, 50 and 30 ms, a 300 ms timeout, 2 s attacks
     * standing for 20 s of talk time). Not at time scale 100: its 30 ms timeout is shorter than this shared
     * machine's own stalls over real sockets (async-non-blocking then failed about 99 % of its requests), so the
     * comparison would measure the machine.
     */
    @Test
    void run_smallScaleOverRealSockets() throws Exception {
        List<Object> streamed = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 10, Progress.NONE, streamed::add, Environment.current());
        ExperimentResult result = new ProfilePageExperiment(ProfilePageExperiment.TALK.subList(0, 3), 20 * S).run(settings);

        assertThat(result.rows()).hasSize(3).isEqualTo(streamed);
        List<ProfilePageExperiment.ProfilePageRow> rows = result.rows().stream().map(ProfilePageExperiment.ProfilePageRow.class::cast).toList();
        assertThat(rows).extracting(ProfilePageExperiment.ProfilePageRow::endpoint)
                .containsExactly("/sync-blocking", "/async-blocking", "/async-non-blocking");
        assertThat(rows).extracting(ProfilePageExperiment.ProfilePageRow::articleSuccessRatio).containsExactly(0.65, 0.11, 1.0);
        assertThat(rows.stream().map(r -> Math.round(r.articleP99Millis() * 100) / 100.0).toList())
                .as("the talk's p99 divided by the time scale").containsExactly(300.32, 300.4, 51.77);
        for (ProfilePageExperiment.ProfilePageRow row : rows) {
            assertThat(row.profile()).isEqualTo("play-2.5");
            assertThat(row.ratePerSecond()).isEqualTo(100.0);
            assertThat(row.requests()).as(row.endpoint() + " sent").isBetween(150L, 200L);
            assertThat(row.latencyMillis().count()).isEqualTo(row.requests());
            assertThat(row.why()).isNotBlank();
        }
        ProfilePageExperiment.ProfilePageRow syncBlocking = rows.get(0), asyncNonBlocking = rows.get(2);
        // 8 threads holding 100 ms serve 80/s against 100/s: wait 20 ms x floor(n / 8) < 200 ms for n < 80 of 200
        assertThat(syncBlocking.predictedSuccessRatio()).isCloseTo(0.40, within(0.001));
        assertThat(asyncNonBlocking.predictedSuccessRatio()).isEqualTo(1.0);
        assertThat(syncBlocking.successRatio()).as("sync-blocking at 1.25 x its capacity against async-non-blocking")
                .isLessThan(asyncNonBlocking.successRatio() - 0.3);
        assertThat(syncBlocking.statusCodes()).containsKey(0);

        assertThat(result.tables().getFirst().rows()).hasSize(3);
        assertThat(result.charts()).hasSize(2).allSatisfy(c -> assertThat(c).isInstanceOf(Chart.BarChart.class));
        JsonNode first = Jsons.mapper().readTree(ReportFormat.JSON.create().render(result)).at("/rows/0");
        for (String field : List.of("endpoint", "profile", "ratePerSecond", "requests", "successRatio", "latencyMillis",
                "articleSuccessRatio", "predictedSuccessRatio", "why"))
            assertThat(first.has(field)).as(field).isTrue();
        assertThat(first.at("/latencyMillis/p99").isNumber()).isTrue();
        assertThat(first.get("articleSuccessRatio").asDouble()).isEqualTo(0.65);
        assertThat(first.get("profile").asText()).isEqualTo("play-2.5");
    }

    @Test
    void talk_latencyPercentilesAsItsVegetaReportsPrintThem() {
        assertThat(ProfilePageExperiment.TALK).extracting(ProfilePageExperiment.TalkAttack::articleP50Millis)
                .containsExactly(2_309.4, 3_002.8, 515.7, 515.9, 1_011.8);
        assertThat(ProfilePageExperiment.TALK).extracting(ProfilePageExperiment.TalkAttack::articleP99Millis)
                .containsExactly(3_003.2, 3_004.0, 517.7, 522.0, 1_538.3);
    }

    @Test
    void talkGap_theTalksOwnShortfallAsAHoldTimePerRequest() {
        assertThat(ProfilePageExperiment.talkGap(ProfilePageExperiment.TALK.get(0)))
                .as("sync-blocking: 65 % against 80 % on 8 threads, the talk's curl took 1.036 s")
                .contains("its 65.00 % is below the 80.00 %").contains("1.04 x its calls");
        assertThat(ProfilePageExperiment.talkGap(ProfilePageExperiment.TALK.get(1))).contains("its 11.00 % is below the 59.00 %");
        assertThat(ProfilePageExperiment.talkGap(ProfilePageExperiment.TALK.get(2))).as("no pool").isEmpty();
        assertThat(ProfilePageExperiment.talkGap(ProfilePageExperiment.TALK.get(4))).as("99.97 % on its prediction").isEmpty();
    }

    @Test
    void tables_theTalksLatenciesBesideTheMeasured() {
        var row = new ProfilePageExperiment.ProfilePageRow("/sync-blocking", "play-2.5", 100, 1, 300, 100, 40, 0.4,
                new dev.blocklab.result.LatencyMillis(100, 100, 250, 240, 300, 305, 308, 308, 308, 308),
                new java.util.TreeMap<>(java.util.Map.of(200, 40L, 0, 60L)), false, 0.65, 230.94, 300.32, "play-2.5 at 10/s",
                0.8, 220, 0.8, "why", "");
        var table = ProfilePageExperiment.tables(List.of(row)).getFirst();
        int p50 = table.columns().indexOf("p50 ms"), p99 = table.columns().indexOf("p99 ms");
        assertThat(table.columns().get(p50 + 1)).isEqualTo("talk p50 ms");
        assertThat(table.columns().get(p99 + 1)).isEqualTo("talk p99 ms");
        assertThat(table.rows().getFirst().get(p50 + 1)).isEqualTo("231");
        assertThat(table.rows().getFirst().get(p99 + 1)).isEqualTo("300");
        // success beside the talk's and the prediction come first, where a 120-column terminal keeps them with the rate
        assertThat(table.columns().subList(0, 6)).containsExactly("endpoint", "profile", "rate", "success %", "talk %", "predicted %");
        assertThat(table.rows().getFirst().get(table.columns().indexOf("sent"))).isEqualTo("100");
        // the HTML's latency chart sets the talk's percentiles beside the measured ones too
        var latency = (dev.blocklab.result.Chart.BarChart) ProfilePageExperiment.charts(List.of(row), "quick").getLast();
        assertThat(latency.bars()).extracting(dev.blocklab.result.Bars::name)
                .containsExactly("p50", "talk p50", "p99", "talk p99", "predicted p50");
        assertThat(latency.bars().get(1).values()).containsExactly(230.94);
        assertThat(latency.bars().get(3).values()).containsExactly(300.32);
    }

    @Test
    void all_registersProfilePageOutsideTheDefaults() {
        assertThat(Experiments.named("profile-page")).isPresent();
        assertThat(Experiments.defaults()).extracting(Experiment::name).doesNotContain("profile-page");
    }
}
