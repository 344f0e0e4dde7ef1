package dev.blocklab.experiment;

import dev.blocklab.experiment.HundredThousandCallsExperiment.FloorRow;
import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HundredThousandCallsExperimentTest {
    private static final long CALL_NANOS = 20_000_000L;

    @Test
    void run_floorBesideEachEngineRow_overFloorIsTheDifferenceOfMedians() {
        List<Object> streamed = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 1, line -> {}, streamed::add,
                ExperimentSettings.quick().environment());
        ExperimentResult result = new HundredThousandCallsExperiment(2_000, CALL_NANOS).run(settings);

        List<FloorRow> rows = result.rows().stream().map(FloorRow.class::cast).toList();
        assertThat(streamed).containsExactlyElementsOf(result.rows());
        assertThat(rows).extracting(FloorRow::row).containsExactly("bare timer futures",
                "cf-nonblocking:" + Runtime.getRuntime().availableProcessors(), "bare virtual threads", "virtual");
        for (FloorRow r : rows) {
            assertThat(r.successes()).as(r.row()).isEqualTo(2_000);
            assertThat(r.cpuMillis()).as(r.row() + " process CPU").isPositive();
            assertThat(r.repeats()).isEqualTo(3);
            // No call can complete before its delay, so no wall time is under it.
            assertThat(r.bestWallMillis()).as(r.row()).isGreaterThanOrEqualTo(20.0);
            assertThat(r.bestWallMillis()).isLessThanOrEqualTo(r.medianWallMillis()).isLessThanOrEqualTo(r.worstWallMillis());
            assertThat(r.ratioToCall()).isCloseTo(r.medianWallMillis() / 20.0, within(1e-9));
        }
        assertThat(rows.get(0).overFloorMillis()).isZero();
        assertThat(rows.get(1).overFloorMillis()).isCloseTo(rows.get(1).medianWallMillis() - rows.get(0).medianWallMillis(), within(1e-9));
        assertThat(rows.get(3).overFloorMillis()).isCloseTo(rows.get(3).medianWallMillis() - rows.get(2).medianWallMillis(), within(1e-9));
        assertThat(result.tables().getFirst().rows()).hasSize(4);
        assertThat(result.notes()).anyMatch(n -> n.contains("floor"));
    }

    @Test
    void constructor_nonPositiveSizes_rejected() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new HundredThousandCallsExperiment(0, CALL_NANOS))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
