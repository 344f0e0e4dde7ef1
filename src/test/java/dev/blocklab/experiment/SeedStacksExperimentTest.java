package dev.blocklab.experiment;

import dev.blocklab.driver.Progress;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The seeds' own stacks beside their emulations, end to end at a small scale: Tomcat + Jersey, Pekko HTTP. */
class SeedStacksExperimentTest {
    private static final long S = 1_000_000_000L;

    @Test
    void frameworksServlet_pairsEachJaxRsVariantWithItsEmulation() throws Exception {
        FrameworksExperiment.Plan plan = new FrameworksExperiment.Plan(10, 5, 10 * S, 50, S,
                List.of(new FrameworksExperiment.Combination(true, 200_000_000L)), 2_000, 1_000, List.of());
        List<Object> streamed = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 10, Progress.NONE, streamed::add, Environment.current());
        ExperimentResult result = new FrameworksServletExperiment(plan).run(settings);

        assertThat(result.experiment()).isEqualTo("frameworks-servlet");
        List<FrameworksExperiment.FrameworksRow> rows = result.rows().stream().map(FrameworksExperiment.FrameworksRow.class::cast).toList();
        assertThat(rows).extracting(FrameworksExperiment.FrameworksRow::variant).containsExactly(
                "frameworks-sequential", "jaxrs-sequential", "invokeall:16", "jaxrs-invokeall:16",
                "supplyasync:16", "jaxrs-supplyasync:16", "cf-suspended:16", "jaxrs-cf-suspended:16");
        assertThat(streamed).hasSize(8);
        for (FrameworksExperiment.FrameworksRow row : rows) {
            assertThat(row.run()).as(row.variant()).isNotNull();
            assertThat(row.run().successRatio()).as(row.variant()).isEqualTo(1.0);
        }
        assertThat(rows.get(1).articleMillis()).as("the article's figure sits beside the Tomcat row too").isEqualTo(2_100.0);
        assertThat(rows.get(1).cpuStepOn()).isEqualTo("request thread");
        assertThat(rows.get(7).cpuStepOn()).isEqualTo("io");
        var pairs = result.tables().getFirst();
        assertThat(pairs.title()).startsWith("Emulation beside the real stack");
        assertThat(pairs.rows()).hasSize(4).allSatisfy(r -> assertThat(r.getLast()).isIn("ok", "> 20 %"));
        assertThat(pairs.rows()).extracting(r -> r.get(1)).containsExactly("frameworks-sequential", "invokeall:16", "supplyasync:16", "cf-suspended:16");
    }

    @Test
    void profilePagePekko_attacksBothServersAtTheSameRate() throws Exception {
        // async-non-blocking at the talk's 10/s x 5 for 4 s (20 s of talk time / 5), the talk's 3 s timeout 600 ms. At
        // / 10 (100/s, 300 ms) a loaded machine answered the emulation's 50 ms requests in 143 to 400 ms, at 7 ms of
        // CPU a request, so that 0 to 26 % came within the timeout (4 of 7 runs under CPU hogs)
        ProfilePagePekkoExperiment experiment = new ProfilePagePekkoExperiment(List.of(ProfilePageExperiment.TALK.get(2)), 20 * S);
        List<Object> streamed = new ArrayList<>();
        ExperimentSettings settings = new ExperimentSettings(false, 5, Progress.NONE, streamed::add, Environment.current());
        ExperimentResult result = experiment.run(settings);

        assertThat(result.rows()).hasSize(1).isEqualTo(streamed);
        var row = (ProfilePagePekkoExperiment.PekkoRow) result.rows().getFirst();
        assertThat(row.endpoint()).isEqualTo("/async-non-blocking");
        assertThat(row.emulated().requests()).isEqualTo(row.pekkoHttp().requests()).isEqualTo(200);
        assertThat(row.emulated().successRatio()).as("generous: the machine is shared: %s", row.emulated()).isGreaterThan(0.5);
        assertThat(row.pekkoHttp().successRatio()).as("%s", row.pekkoHttp()).isGreaterThan(0.5);
        assertThat(row.pekkoHttp().statusCodes()).containsKey(200);
        assertThat(row.pekkoHttp().cpuMillisPerRequest()).isPositive();
        assertThat(row.flag()).matches("ok|> 20 %: .*");
        assertThat(result.notes()).anyMatch(n -> n.contains("Pekko HTTP 1.3.0"));
        // the talk's latencies at the run's scale, as profile-page's: 515.7 ms and 517.7 ms / 5
        assertThat(row.articleP50Millis()).isCloseTo(103.14, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(row.articleP99Millis()).isCloseTo(103.54, org.assertj.core.data.Offset.offset(1e-9));
    }

    /** The talk's p50 and p99 sit beside the two servers' measured ones, as profile-page sets them. */
    @Test
    void profilePagePekko_tableSetsTheTalksLatenciesBesideTheMeasured() {
        var latency = new dev.blocklab.result.LatencyMillis(100, 55, 50, 52, 60, 65, 70, 75, 75, 80);
        var side = new ProfilePagePekkoExperiment.Side("x", 100, 1.0, latency, new java.util.TreeMap<>(java.util.Map.of(200, 100L)), false, 1.5);
        var row = new ProfilePagePekkoExperiment.PekkoRow("/sync-blocking", 100, 0.65, 230.94, 300.32, 0.8, side, side, "ok");
        var table = ProfilePagePekkoExperiment.table(List.of(row));
        List<String> columns = table.columns();
        assertThat(columns.subList(columns.indexOf("p50 ms talk"), columns.indexOf("p50 ms talk") + 6))
                .containsExactly("p50 ms talk", "p50 ms play-2.5", "p50 ms pekko", "p99 ms talk", "p99 ms play-2.5", "p99 ms pekko");
        List<String> cells = table.rows().getFirst();
        assertThat(cells.get(columns.indexOf("p50 ms talk"))).isEqualTo("231");
        assertThat(cells.get(columns.indexOf("p99 ms talk"))).isEqualTo("300");
        assertThat(cells.get(columns.indexOf("talk %"))).isEqualTo("65.00");
        // the default 120 columns keep every latency beside the talk's: both servers' p50 and p99 too
        var result = new ExperimentResult("profile-page-pekko", "d", "quick", null, List.of(row), List.of(table), List.of());
        String text = dev.blocklab.report.ReportFormat.TEXT.create(120).render(result);
        assertThat(text.replaceAll("\\s+", " ")).contains("p50 ms talk 231", "p50 ms play-2.5 52.0", "p50 ms pekko 52.0",
                "p99 ms talk 300", "p99 ms play-2.5 70.0", "p99 ms pekko 70.0");
    }
}
