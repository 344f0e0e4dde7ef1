package dev.blocklab.experiment;

import dev.blocklab.experiment.MillionJobsExperiment.MillionRow;
import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MillionJobsExperimentTest {
    private static final int JOBS = 2_000;
    private static final long JOB_NANOS = 20_000_000L;

    @Test
    void run_floorThenEngine_countsEveryJobAndRatiosAgainstTheFloor() {
        List<Object> streamed = new ArrayList<>();
        List<String> progress = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 1, progress::add, streamed::add,
                ExperimentSettings.quick().environment());
        ExperimentResult result = new MillionJobsExperiment(JOBS, JOB_NANOS, 1).run(settings);

        List<MillionRow> rows = result.rows().stream().map(MillionRow.class::cast).toList();
        assertThat(streamed).containsExactlyElementsOf(result.rows());
        assertThat(rows).extracting(MillionRow::row).containsExactly("bare virtual threads", "virtual");
        assertThat(rows).extracting(MillionRow::kind).allMatch(k -> k.startsWith("floor: ") || k.startsWith("engine: "));
        for (MillionRow r : rows) {
            assertThat(r.requests()).isEqualTo(JOBS);
            assertThat(r.successes()).as(r.row()).isEqualTo(JOBS);
            assertThat(r.repeats()).isEqualTo(3);
            assertThat(r.jobMillis()).isEqualTo(20.0);
            // No job can end before its sleep, so no run is shorter than one.
            assertThat(r.bestWallMillis()).as(r.row()).isGreaterThanOrEqualTo(20.0);
            assertThat(r.bestWallMillis()).isLessThanOrEqualTo(r.medianWallMillis()).isLessThanOrEqualTo(r.worstWallMillis());
            assertThat(r.medianCpuMillis()).as(r.row() + " process CPU").isPositive();
            // Every job allocates at least its virtual thread.
            assertThat(r.allocatedBytesPerRequest()).as(r.row()).isGreaterThan(100);
            assertThat(r.peakRssMiB()).isPositive();
        }
        MillionRow floor = rows.get(0);
        MillionRow engine = rows.get(1);
        assertThat(floor.ratioToFloor()).isEqualTo(1.0);
        assertThat(floor.medianRoundRatio()).isEqualTo(1.0);
        assertThat(engine.ratioToFloor()).isCloseTo(engine.medianWallMillis() / floor.medianWallMillis(), within(1e-9));
        assertThat(engine.medianRoundRatio()).isPositive();
        // warm-up round, then three rounds, each the floor before the engine
        assertThat(progress).filteredOn(l -> l.startsWith("bare virtual threads ")).extracting(l -> l.substring(21))
                .containsExactly("warm-up 1/1", "round 1/3", "round 2/3", "round 3/3");
        assertThat(result.tables().getFirst().rows()).hasSize(2);
        assertThat(result.tables().getFirst().columns()).contains("median round ratio", "alloc B/job");
    }

    @Test
    void registered_underItsName() {
        assertThat(Experiments.named("million-jobs")).isPresent();
    }

    @Test
    void constructor_nonPositiveSizes_rejected() {
        assertThatThrownBy(() -> new MillionJobsExperiment(0, JOB_NANOS, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MillionJobsExperiment(JOBS, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MillionJobsExperiment(JOBS, JOB_NANOS, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static MillionRow row(double best, double median, double worst, double ratio) {
        return new MillionRow("r", "k", 1000, 1000, 100, median, best, worst, 3, ratio, ratio, 10, 100, 100);
    }

    @Test
    void noise_anEngineFasterThanItsFloor_orAFloorSpreadByAThird_isCalledNoise() {
        // the walkthrough's run: engine 0.76 x the floor, whose runs took 899-1,467 ms
        assertThat(MillionJobsExperiment.noise(row(899, 1441, 1467, 1), row(1000, 1089, 1200, 0.76)))
                .hasValue("Noise: the floor's runs took 899 to 1467 ms (63 % apart), and the engine's median came out 0.76 x the floor's, "
                        + "faster than the bare threads it runs on; on this machine the load from elsewhere outweighed the engine's cost "
                        + "this time, so read the ratios as noise and rerun (--full takes more rounds).");
        assertThat(MillionJobsExperiment.noise(row(1000, 1100, 1200, 1), row(1300, 1400, 1500, 1.27))).as("20 % apart, engine slower").isEmpty();
        assertThat(MillionJobsExperiment.noise(row(1000, 1100, 1400, 1), row(1300, 1400, 1500, 1.27))).as("40 % apart").isPresent();
    }
}
