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

    @Test void json_pools_structuredFields_roundTrip_andAbsentWithoutAPool() throws Exception {
        RunResult simulated = SyntheticResults.run("fixed:8", 100, 100, 1300, 1300, 100, 1300, 8, 20);
        assertThat(simulated.pools()).isEmpty();
        assertThat(JSON.valueToTree(simulated).has("pools")).as("a run without a real server's pool").isFalse();
        PoolStats jedis = new PoolStats("jedis", 4, 40, 2, 3, 4, 12.5, 48.25, 50.5);
        PoolStats lettuce = new PoolStats("lettuce" + PoolStats.SHARED, 1, 40, 0, 0, 3, 0, 0, 0);
        RunResult pooled = simulated.withPools(List.of(jedis, lettuce));
        JsonNode pools = JSON.valueToTree(pooled).get("pools");
        assertThat(pools).hasSize(2);
        assertThat(pools.get(0).toString()).isEqualTo("{\"client\":\"jedis\",\"poolSize\":4,\"calls\":40,\"failedWaits\":2,"
                + "\"connectFailures\":3,\"peakInUse\":4,\"meanWaitMillis\":12.5,\"p99WaitMillis\":48.25,\"maxWaitMillis\":50.5}");
        RunResult read = JSON.readValue(JSON.writeValueAsString(pooled), RunResult.class);
        assertThat(read.pools()).containsExactly(jedis, lettuce);
        assertThat(read).isEqualTo(pooled);
        assertThat(pooled.withRepeats(Repeats.once(5)).pools()).as("kept by withRepeats").containsExactly(jedis, lettuce);
        assertThat(pooled.interruptedAfter(1, 2).pools()).as("kept by interruptedAfter").containsExactly(jedis, lettuce);
    }

    @Test void json_poolSavedBeforeConnectFailures_readsThemAsZero() throws Exception {
        PoolStats read = JSON.readValue("{\"client\":\"jedis\",\"poolSize\":4,\"calls\":40,\"failedWaits\":2,\"peakInUse\":4,"
                + "\"meanWaitMillis\":1.0,\"p99WaitMillis\":2.0,\"maxWaitMillis\":3.0}", PoolStats.class);
        assertThat(read).isEqualTo(new PoolStats("jedis", 4, 40, 2, 0, 4, 1.0, 2.0, 3.0));
    }

    @Test void json_savedBeforePools_readAsNone() throws Exception {
        ObjectNode old = JSON.valueToTree(SyntheticResults.run("virtual", 10, 10, 50, 100, 10, 40, 2, 12));
        assertThat(old.has("pools")).isFalse();
        assertThat(JSON.treeToValue(old, RunResult.class).pools()).isEmpty();
        old.putNull("pools");
        assertThat(JSON.treeToValue(old, RunResult.class).pools()).isEmpty();
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

    /**
     * A failure the workload draws (its `failure:` field) is thrown by blocklab's own code: its frames were printed
     * in the run's notes (CallInvocation.instantiate < newFailure < SimulatedBackend.callBlocking < ...), telling the
     * user nothing; the note now says it was drawn. A failure thrown by code keeps its frames.
     */
    @Test void firstFailure_drawnByTheWorkload_oneLineWithoutBlocklabsFrames() {
        var spec = new dev.blocklab.workload.Step.FailureSpec("java.io.IOException", "posts database unavailable");
        var call = new dev.blocklab.workload.CallInvocation("posts", 7, 1_000_000, 0, 0, spec);
        FirstFailure drawn = FirstFailure.of(call.newFailure());
        assertThat(drawn.drawn()).isTrue();
        assertThat(drawn.oneLine()).isEqualTo("java.io.IOException: posts database unavailable (drawn by the workload's failure probability)");
        assertThat(FirstFailure.of(dev.blocklab.workload.CallInvocation.instantiate(
                new dev.blocklab.workload.Step.FailureSpec("java.lang.String", "no such exception"))).drawn()).as("the fallback type").isTrue();
        assertThat(FirstFailure.of(deep(3)).drawn()).isFalse();
        // blocklab's own bug on the same path (asking a succeeding call for its failure) is not a drawn failure
        Throwable bug = org.assertj.core.api.Assertions.catchThrowable(
                new dev.blocklab.workload.CallInvocation("posts", 7, 1_000_000, 0, 0, null)::newFailure);
        assertThat(FirstFailure.of(bug).drawn()).isFalse();
        assertThat(FirstFailure.of(deep(3)).oneLine()).contains(" at dev.blocklab.result.RunResultTest.deep(");
    }

    private static Throwable deep(int n) {
        if (n == 0) return new IllegalStateException("depth 0");
        return deep(n - 1);
    }
}
