package dev.blocklab.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.blocklab.report.Jsons;
import dev.blocklab.report.ReportFormat;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThreadSwitchExperimentTest {
    private static final ThreadSwitchExperiment.RingScale TINY =
            new ThreadSwitchExperiment.RingScale(List.of(1, 2, 4), List.of(0, 64), 64, "tiny");
    private static final ThreadSwitchExperiment.RingScale TINY_FULL =
            new ThreadSwitchExperiment.RingScale(List.of(1, 16, 64), List.of(1024, 16 * 1024), 64, "tiny full");

    private static ExperimentSettings settings(boolean full, List<Object> sink, List<String> progress) {
        return new ExperimentSettings(full, 1, progress::add, sink::add, Environment.current());
    }

    @Test
    void run_tinyScale_measuresEveryVariantThreadCountAndBlock() throws Exception {
        List<Object> sink = new ArrayList<>();
        List<String> progress = new ArrayList<>();
        ExperimentResult result = new ThreadSwitchExperiment(TINY, TINY_FULL).run(settings(false, sink, progress));

        assertThat(result.experiment()).isEqualTo("thread-switch");
        assertThat(result.scale()).isEqualTo("quick");
        assertThat(List.<Object>copyOf(result.rows())).hasSize(4 * 3 * 2).containsExactlyElementsOf(sink);
        List<ThreadSwitchRow> rows = result.rows().stream().map(ThreadSwitchRow.class::cast).toList();
        assertThat(rows).extracting(ThreadSwitchRow::variant).containsOnly(
                "platform-future", "platform-monitor", "virtual-future", "virtual-condition");
        assertThat(rows).extracting(ThreadSwitchRow::threads).containsOnly(1, 2, 4);
        assertThat(rows).extracting(ThreadSwitchRow::blockBytes).containsOnly(0, 64);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.handoffs()).isEqualTo(64);
            assertThat(row.sumsChecked()).isEqualTo(64);
            assertThat(row.microsPerSwitch()).isPositive();
            assertThat(row.wallMillis()).isPositive();
        });
        assertThat(progress).anyMatch(line -> line.contains("warm-up")).anyMatch(line -> line.contains("[24/24]"));
    }

    @Test
    void run_tinyScale_laysOutOneTablePerVariantRatiosAndTheKeyPoint() throws Exception {
        ExperimentResult result = new ThreadSwitchExperiment(TINY, TINY_FULL).run(settings(false, new ArrayList<>(), new ArrayList<>()));
        // Figure 2: a log-log chart per block size, a line per variant, one point per thread count
        assertThat(result.charts()).isNotEmpty().allSatisfy(c -> {
            var line = (dev.blocklab.result.Chart.LineChart) c;
            assertThat(line.title()).startsWith("Figure 2: cost per switch against threads");
            assertThat(line.logX()).isTrue();
            assertThat(line.series()).hasSize(4).allSatisfy(series -> assertThat(series.points()).isNotEmpty());
        });

        List<Table> tables = result.tables();
        assertThat(tables).hasSize(4 + 2 + 1);
        for (Table grid : tables.subList(0, 6)) {
            assertThat(grid.columns()).containsExactly("threads", "0 KB", "64 B");
            assertThat(grid.rows()).extracting(row -> row.get(0)).containsExactly("1", "2", "4");
        }
        assertThat(tables.get(0).title()).startsWith("platform-future").contains("microseconds per switch");
        assertThat(tables.get(4).title()).startsWith("platform-future / virtual-future");
        Table key = tables.get(6);
        assertThat(key.title()).as("no 16 in the scale: its middle count").startsWith("2 threads, 64 B blocks");
        assertThat(key.rows()).extracting(row -> row.get(0))
                .containsExactly("platform-future", "platform-monitor", "virtual-future", "virtual-condition");
        assertThat(key.rows().get(2).get(2)).isEqualTo("1.00");
        assertThat(result.notes()).anyMatch(n -> n.startsWith("Here, 2 threads with 64 B blocks"))
                .anyMatch(n -> n.contains("12.5 us")).anyMatch(n -> n.contains("Scale: tiny"))
                .anyMatch(n -> n.startsWith("Sums checked: 1536 of 1536"))
                .as("only what the article says of its machine").noneMatch(n -> n.contains("otherwise idle"))
                .anyMatch(n -> n.contains("a best case, every core kept at full clock speed"));
    }

    @Test
    void run_full_usesTheFullScaleAndKeysOn16Kb() throws Exception {
        ExperimentResult result = new ThreadSwitchExperiment(TINY, TINY_FULL).run(settings(true, new ArrayList<>(), new ArrayList<>()));

        assertThat(result.scale()).isEqualTo("full");
        assertThat(result.rows()).hasSize(4 * 3 * 2);
        Table key = result.tables().getLast();
        // the article's 12.5 us is for "a moderate number of threads": 16, not the scale's largest ring
        assertThat(key.title()).startsWith("16 threads, 16 KB blocks");
        assertThat(key.rows().getFirst()).first().isEqualTo("platform-future");
        assertThat(key.rows().getFirst()).last().isEqualTo("about 12.5");
    }

    @Test
    void render_json_rowsCarryVariantThreadsBlockBytesAndMicros() throws Exception {
        ExperimentResult result = new ThreadSwitchExperiment(TINY, TINY_FULL).run(settings(false, new ArrayList<>(), new ArrayList<>()));

        JsonNode root = Jsons.mapper().readTree(ReportFormat.JSON.create().render(result));

        JsonNode row = root.get("rows").get(0);
        assertThat(row.get("variant").asText()).isEqualTo("platform-future");
        assertThat(row.get("threads").asInt()).isEqualTo(1);
        assertThat(row.get("blockBytes").asInt()).isEqualTo(0);
        assertThat(row.get("microsPerSwitch").asDouble()).isPositive();
        assertThat(row.get("handoffs").asLong()).isEqualTo(64);
        assertThat(root.get("rows")).hasSize(24);
    }

    @Test
    void render_csv_hasEveryTable() throws Exception {
        ExperimentResult result = new ThreadSwitchExperiment(TINY, TINY_FULL).run(settings(false, new ArrayList<>(), new ArrayList<>()));

        String csv = ReportFormat.CSV.create().render(result);

        assertThat(csv.lines().skip(1).map(l -> l.substring(0, l.indexOf(','))).distinct()).hasSize(7);
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("table,threads,0 KB,64 B");
        assertThat(csv).doesNotContain("# ");
    }

    @Test
    void ringScale_handoffsNotSplittingOverAThreadCount_isRejected() {
        assertThatThrownBy(() -> new ThreadSwitchExperiment.RingScale(List.of(1, 3), List.of(0), 50, "bad"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("50 hand-offs do not split over 3 threads");
    }

    @Test
    void registry_listsThreadSwitchButNotByDefault() {
        assertThat(Experiments.require("thread-switch")).isInstanceOf(ThreadSwitchExperiment.class);
        assertThat(Experiments.defaults()).extracting(Experiment::name).doesNotContain("thread-switch");
    }
}
