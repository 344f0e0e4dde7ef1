package dev.blocklab.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/** The JSON report against {@code golden/json/synthetic.json}, and read back as the runs it was made from. */
class JsonReportGoldenTest {
    @Test void render_syntheticResult_matchesGoldenFile() {
        Golden.assertMatches("json/synthetic.json", ReportFormat.JSON.create().render(SyntheticResults.standard()));
    }

    @Test void render_runs_flatRowsReadBackEqual_withTheFirstFailureOnlyWhereRequestsFailed() throws Exception {
        ExperimentResult result = SyntheticResults.standard();
        JsonNode rows = Jsons.mapper().readTree(ReportFormat.JSON.create().render(result)).get("rows");
        assertThat(rows).hasSize(result.rows().size());
        for (int i = 0; i < rows.size(); i++) {
            RunResult original = (RunResult) result.rows().get(i);
            RunResult read = Jsons.mapper().treeToValue(rows.get(i), RunResult.class);
            assertThat(read.toString()).isEqualTo(original.toString());
            assertThat(rows.get(i).has("firstFailure")).as(original.model()).isEqualTo(original.counts().failures() > 0);
        }
    }

    @Test void failureNotes_failedRun_countPerCauseThenTheFirstFailureWithItsFrames() {
        RunResult failed = SyntheticResults.runs().getLast();
        assertThat(RunTables.failureNotes("seed", failed)).containsExactly(
                "seed: 6 x java.lang.IllegalArgumentException: This won't work!",
                "seed: first failure java.lang.IllegalArgumentException: This won't work! at "
                        + "dev.blocklab.synthetic.Seed.call(Seed.java:42) < dev.blocklab.synthetic.Seed.run(Seed.java:7)");
        assertThat(RunTables.failureNotes("fine", SyntheticResults.runs().getFirst())).isEmpty();
    }
}
