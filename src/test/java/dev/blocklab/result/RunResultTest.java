package dev.blocklab.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.blocklab.report.Jsons;
import dev.blocklab.report.SyntheticResults;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunResultTest {
    private static final ObjectMapper JSON = Jsons.mapper();

    /** The top-level fields a saved run has always had, in the flat layout `blocklab report` reads back. */
    private static final List<String> SAVED_FIELDS = List.of("model", "workload", "arrival", "timeScaleDivisor", "answer",
            "requests", "successes", "failures", "timeouts", "cancelled", "failureCauses", "wallMillis", "wallMillisMin",
            "wallMillisMax", "repeats", "idealMillis", "predictedMillis", "predictionBasis", "throughputPerSecond",
            "latencyMillis", "latencyHistogram", "peakPlatformThreads", "peakOsThreads", "platformThreadsStarted",
            "leftoverThreads", "cpuMillis", "contextSwitches", "allocatedBytes", "peakRssBytes");

    @Test void json_flatLayoutWithTheSavedFieldNames_andTheArrivalKind() {
        RunResult run = SyntheticResults.run("fixed:8", 100, 100, 1300, 1300, 100, 1300, 8, 20);
        JsonNode node = JSON.valueToTree(run);
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsAll(SAVED_FIELDS).contains("arrivalKind").doesNotContain("counts", "timing", "firstFailure");
        assertThat(node.get("repeats").asInt()).isEqualTo(3);
        assertThat(node.get("arrivalKind").asText()).isEqualTo("batch");
        assertThat(node.get("latencyMillis").get("p99").isNumber()).isTrue();
    }

    @Test void json_roundTrip_equal() throws Exception {
        RunResult failing = SyntheticResults.run("seed", 10, 4, 50, 100, 10, 40, 2, 12);
        assertThat(failing.firstFailure()).isNotNull();
        RunResult read = JSON.readValue(JSON.writeValueAsString(failing), RunResult.class);
        assertThat(read.toString()).isEqualTo(failing.toString());
        assertThat(read.firstFailure().frames()).hasSize(2);
        assertThat(JSON.valueToTree(failing).get("firstFailure").get("type").asText()).isEqualTo("java.lang.IllegalArgumentException");
    }

    @Test void json_interruptedOnlyForAStoppedRun_andReadBack() throws Exception {
        RunResult whole = SyntheticResults.run("fixed:8", 100, 100, 1300, 1300, 100, 1300, 8, 20);
        assertThat(JSON.valueToTree(whole).has("interrupted")).isFalse();
        RunResult stopped = whole.interruptedAfter(120, 1000);
        assertThat(JSON.valueToTree(stopped).get("interrupted").toString()).isEqualTo("{\"requestsSent\":120,\"requestsPlanned\":1000}");
        assertThat(JSON.readValue(JSON.writeValueAsString(stopped), RunResult.class).interrupted()).isEqualTo(new Interruption(120, 1000));
        assertThat(stopped.withRepeats(Repeats.once(5)).interrupted()).as("kept by withRepeats").isEqualTo(stopped.interrupted());
    }

    @Test void json_savedBeforeTheArrivalKind_kindTakenFromTheLabel() throws Exception {
        RunResult run = SyntheticResults.run("virtual", 10, 10, 50, 100, 10, 40, 2, 12);
        ObjectNode old = JSON.valueToTree(run);
        old.remove("arrivalKind");
        old.put("arrival", "open 100/s for 2s");
        RunResult read = JSON.treeToValue(old, RunResult.class);
        assertThat(read.arrivalKind()).isEqualTo(ArrivalKind.OPEN);
        assertThat(read.predictsWallTime()).isFalse();
        assertThat(read.measuredMillis()).isEqualTo(run.timing().latencyMillis().mean());
    }

    @Test void measuredMillis_batch_isTheWallTime() {
        RunResult run = SyntheticResults.run("virtual", 10, 10, 50, 100, 10, 40, 2, 12);
        assertThat(run.predictsWallTime()).isTrue();
        assertThat(run.measuredMillis()).isEqualTo(50);
    }

    @Test void withRepeats_replacesOnlyTheGroup() {
        RunResult run = SyntheticResults.run("virtual", 10, 10, 50, 100, 10, 40, 2, 12);
        RunResult grouped = run.withRepeats(new Repeats(5, 40, 60));
        assertThat(grouped.repeats()).isEqualTo(new Repeats(5, 40, 60));
        assertThat(grouped.withRepeats(run.repeats())).isEqualTo(run);
    }

    @Test void new_arrivalLabelWithoutAKind_rejected() {
        RunResult run = SyntheticResults.run("virtual", 10, 10, 50, 100, 10, 40, 2, 12);
        assertThatThrownBy(() -> new RunResult("m", "w", "burst 10", null, 1, null, run.counts(), run.timing(), run.repeats(),
                run.prediction(), run.resources(), null)).hasMessageContaining("no arrival kind in the label 'burst 10'");
        assertThatThrownBy(() -> new RunResult("m", "w", "batch 10", ArrivalKind.BATCH, 0, null, run.counts(), run.timing(),
                run.repeats(), run.prediction(), run.resources(), null)).hasMessageContaining("time-scale divisor");
    }

    @Test void firstFailure_of_keepsTypeMessageAndTheInnermostFrames() {
        Throwable t = deep(10);
        FirstFailure f = FirstFailure.of(t);
        assertThat(f.type()).isEqualTo("java.lang.IllegalStateException");
        assertThat(f.cause()).isEqualTo("java.lang.IllegalStateException: depth 0");
        assertThat(f.frames()).hasSize(FirstFailure.FRAMES).first().asString().contains("RunResultTest.deep");
        assertThat(f.oneLine()).startsWith("java.lang.IllegalStateException: depth 0 at dev.blocklab.result.RunResultTest.deep(");
        assertThat(FirstFailure.of(null)).isNull();
    }

    @Test void firstFailure_of_skipsTheJdksFramesOnTop() throws Exception {
        Throwable reflective = IllegalStateException.class.getConstructor(String.class).newInstance("made reflectively");
        assertThat(reflective.getStackTrace()[0].getClassName()).startsWith("jdk.internal.reflect");
        FirstFailure f = FirstFailure.of(reflective);
        assertThat(f.frames().getFirst()).startsWith("dev.blocklab.result.RunResultTest.firstFailure_of_skipsTheJdksFramesOnTop(");
        Throwable allJdk = new IllegalStateException("jdk only");
        allJdk.setStackTrace(new StackTraceElement[]{new StackTraceElement("java.lang.Thread", "run", "Thread.java", 1)});
        assertThat(FirstFailure.of(allJdk).frames()).containsExactly("java.lang.Thread.run(Thread.java:1)");
    }

    private static Throwable deep(int n) {
        if (n == 0) return new IllegalStateException("depth 0");
        return deep(n - 1);
    }
}
