package dev.blocklab.workload;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestTimesTest {
    private static final long MS = 1_000_000L;

    private static Step.Call call(String name, List<String> inputs, Latency latency) {
        return new Step.Call(name, inputs, latency, new Value.Constant(1L), 0, null, 0);
    }

    /** a and b in parallel (a fork), then c after both (a sequence). */
    private static Graph forkThenCall(Latency latency) {
        return new Graph(0L, List.of(call("a", List.of(), latency), call("b", List.of(), latency),
                call("c", List.of("a", "b"), latency)));
    }

    @Test
    void draw_forkIsTheMaxOfBranches_sequenceIsTheSum_sameDrawsAsTheRun() {
        Graph g = forkThenCall(new Latency.LogNormal(10 * MS, 100 * MS));
        RequestTimes t = RequestTimes.draw(g, 42, 1, 50, true);
        for (int id = 0; id < 50; id++) {
            Request r = new Request(id, g, 42, 1);
            long a = r.invocation(0, List.of()).delayNanos();
            long b = r.invocation(1, List.of()).delayNanos();
            long c = r.invocation(2, List.of(1L, 1L)).delayNanos();
            assertThat(t.serialNanos()[id]).isEqualTo(a + b + c);
            assertThat(t.criticalPathNanos()[id]).isEqualTo(Math.max(a, b) + c);
            assertThat(t.levelledPathNanos()[id]).isEqualTo(Math.max(a, b) + c);
        }
        assertThat(RequestTimes.draw(g, 42, 1, 50, true)).isEqualTo(t);
        assertThat(RequestTimes.draw(g, 43, 1, 50, true)).isNotEqualTo(t);
    }

    @Test
    void draw_timeScaleAndTimeoutApply() {
        Graph g = new Graph(0L, List.of(new Step.Call("slow", List.of(), new Latency.Fixed(500 * MS), new Value.Constant(1L), 0, null, 200 * MS)));
        RequestTimes t = RequestTimes.draw(g, 1, 10, 3, true);
        assertThat(t.serialNanos()).containsOnly(20 * MS);
    }

    @Test
    void scheduleNanos_equalTimesAreWaves_unequalTimesGoToTheFirstFreeThread() {
        long[] equal = {10, 10, 10, 10, 10};
        assertThat(new RequestTimes(equal, equal, equal).scheduleNanos(2, RequestTimes.Path.SERIAL)).isEqualTo(30); // ceil(5/2) x 10
        long[] unequal = {100, 10, 10, 10, 10};
        // thread 1 holds the 100; thread 2 runs the four 10s: 40; the batch ends at 100
        assertThat(new RequestTimes(unequal, unequal, unequal).scheduleNanos(2, RequestTimes.Path.SERIAL)).isEqualTo(100);
        assertThat(new RequestTimes(unequal, unequal, unequal).scheduleNanos(1, RequestTimes.Path.SERIAL)).isEqualTo(140);
        assertThat(new RequestTimes(unequal, unequal, unequal).scheduleNanos(99, RequestTimes.Path.SERIAL)).isEqualTo(100);
    }

    @Test
    void maxAndPercentiles_ofTheDrawnTimes() {
        long[] times = {5, 1, 4, 2, 3};
        RequestTimes t = new RequestTimes(times, times, times);
        assertThat(t.maxNanos(RequestTimes.Path.CRITICAL)).isEqualTo(5);
        assertThat(t.meanNanos(RequestTimes.Path.CRITICAL)).isEqualTo(3.0);
        assertThat(t.percentileNanos(RequestTimes.Path.CRITICAL, 50)).isEqualTo(3);
        assertThat(t.percentileNanos(RequestTimes.Path.CRITICAL, 99)).isEqualTo(5);
    }

    @Test
    void isRandom_onlyForDrawnLatencies() {
        assertThat(RequestTimes.isRandom(forkThenCall(new Latency.Fixed(MS)))).isFalse();
        assertThat(RequestTimes.isRandom(forkThenCall(new Latency.Uniform(MS, 2 * MS)))).isTrue();
        assertThatThrownBy(() -> RequestTimes.draw(forkThenCall(new Latency.Fixed(MS)), 1, 1, 0, true)).isInstanceOf(IllegalArgumentException.class);
    }

    private static Graph lone(Latency latency, double failure, long timeoutNanos, Step.Attempts attempts) {
        return new Graph(0L, List.of(new Step.Call("c", List.of(), latency, new Value.Constant(1L), failure,
                failure > 0 ? Step.FailureSpec.DEFAULT : null, timeoutNanos, null, attempts)));
    }

    @Test
    void callNanos_retryAddsEveryAttemptAndBackoffUntilOneSucceeds() {
        // every attempt times out at 20 ms: 20 + 10 (backoff) + 20 + 20 (doubled backoff) + 20
        Graph timesOut = lone(new Latency.Fixed(30 * MS), 0, 20 * MS, new Step.Attempts.Retry(3, 10 * MS));
        assertThat(new Request(0, timesOut, 1, 1).callNanos(0)).isEqualTo(90 * MS);
        assertThat(new Request(0, timesOut, 1, 10).callNanos(0)).isEqualTo(9 * MS);   // the time scale applies to all
        // a call that fails half the time: each request's time is the attempts it made until one succeeded
        Graph flaky = lone(new Latency.Fixed(30 * MS), 0.5, 0, new Step.Attempts.Retry(3, 10 * MS));
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int id = 0; id < 200; id++) {
            Request r = new Request(id, flaky, 7, 1);
            long expected = 0;
            for (int k = 0; k < 3; k++) {
                if (k > 0) expected += (10 * MS) << (k - 1);
                expected += 30 * MS;
                if (r.invocation(0, List.of(), k).failure() == null) break;
            }
            assertThat(r.callNanos(0)).as("request %d", id).isEqualTo(expected);
            seen.add(expected);
        }
        assertThat(seen).containsExactlyInAnyOrder(30 * MS, 70 * MS, 120 * MS);   // one, two and three attempts (backoffs 10, 20)
        assertThat(RequestTimes.isRandom(flaky)).isTrue();
    }

    @Test
    void callNanos_hedgeEndsAtTheFirstSuccess_orAtTheLastFailure() {
        // a fixed 100 ms call hedged at 30 ms: the second attempt would end at 130, so the first answers
        assertThat(new Request(0, lone(new Latency.Fixed(100 * MS), 0, 0, new Step.Attempts.Hedge(30 * MS)), 1, 1).callNanos(0))
                .isEqualTo(100 * MS);
        // both attempts time out at 50 ms: the first at 50, the second (sent at 30) at 80, when the call fails
        assertThat(new Request(0, lone(new Latency.Fixed(100 * MS), 0, 50 * MS, new Step.Attempts.Hedge(30 * MS)), 1, 1).callNanos(0))
                .isEqualTo(80 * MS);
        // a first attempt that fails before the hedge is due fails the call then
        assertThat(new Request(0, lone(new Latency.Fixed(10 * MS), 1.0, 0, new Step.Attempts.Hedge(30 * MS)), 1, 1).callNanos(0))
                .isEqualTo(10 * MS);
        // a long tail: each request ends at the earlier of its first attempt and the hedge's, never later than the first
        Graph tail = lone(new Latency.LogNormal(20 * MS, 500 * MS), 0, 0, new Step.Attempts.Hedge(60 * MS));
        int cut = 0;
        for (int id = 0; id < 500; id++) {
            Request r = new Request(id, tail, 3, 1);
            long first = r.invocation(0, List.of(), 0).delayNanos();
            long second = 60 * MS + r.invocation(0, List.of(), 1).delayNanos();
            long expected = first <= 60 * MS ? first : Math.min(first, second);
            assertThat(r.callNanos(0)).as("request %d", id).isEqualTo(expected);
            if (expected < first) cut++;
        }
        assertThat(cut).as("requests the hedge made faster").isGreaterThan(20);
        RequestTimes drawn = RequestTimes.draw(tail, 3, 1, 500, true);
        assertThat(drawn.percentileNanos(RequestTimes.Path.SERIAL, 99)).isLessThan(250 * MS);   // the unhedged p99 is 500 ms
        assertThat(RequestTimes.isRandom(lone(new Latency.Fixed(MS), 0, 0, new Step.Attempts.Hedge(MS)))).isTrue();
    }

    private static Step.Call failing(String name, List<String> inputs, long nanos, double probability) {
        return new Step.Call(name, inputs, new Latency.Fixed(nanos), new Value.Constant(1L), probability, Step.FailureSpec.DEFAULT, 0);
    }

    /** x (100 ms) and y (10 ms, always fails) side by side, then z (1 s) after both. */
    private static Graph sideBySideThenSlow() {
        return new Graph(0L, List.of(call("x", List.of(), new Latency.Fixed(100 * MS)), failing("y", List.of(), 10 * MS, 1.0),
                call("z", List.of("x", "y"), new Latency.Fixed(1000 * MS))));
    }

    @Test
    void draw_failsFast_aFailingCallEndsItsRequest_inOrder_onThePaths_andInItsLevel() {
        RequestTimes t = RequestTimes.draw(sideBySideThenSlow(), 1, 1, 3, true);
        assertThat(t.serialNanos()).as("one after another: x, then y fails").containsOnly(110 * MS);
        assertThat(t.criticalPathNanos()).as("side by side: y's failure at 10 ms ends it").containsOnly(10 * MS);
        assertThat(t.levelledPathNanos()).as("the first level ends at its first failure").containsOnly(10 * MS);
        // half the requests fail at 10 ms, the others run the whole second
        Graph half = new Graph(0L, List.of(failing("a", List.of(), 10 * MS, 0.5), call("b", List.of("a"), new Latency.Fixed(1000 * MS))));
        RequestTimes h = RequestTimes.draw(half, 1, 1, 400, true);
        int failed = 0;
        for (int id = 0; id < 400; id++) {
            boolean fails = new Request(id, half, 1, 1).invocation(0, List.of()).failure() != null;
            assertThat(h.serialNanos()[id]).as("request %d", id).isEqualTo(fails ? 10 * MS : 1010 * MS);
            if (fails) failed++;
        }
        assertThat(failed).isBetween(120, 280);
        // a retry that rescues the call does not end the request
        Graph rescued = new Graph(0L, List.of(new Step.Call("r", List.of(), new Latency.Fixed(10 * MS), new Value.Constant(1L), 0.2,
                Step.FailureSpec.DEFAULT, 0, null, new Step.Attempts.Retry(8, 0)), call("b", List.of("r"), new Latency.Fixed(1000 * MS))));
        assertThat(java.util.Arrays.stream(RequestTimes.draw(rescued, 1, 1, 50, true).serialNanos()).min().orElseThrow())
                .isGreaterThanOrEqualTo(1010 * MS);
        // a call's timeout fails it as a failure does
        Graph timesOut = new Graph(0L, List.of(new Step.Call("t", List.of(), new Latency.Fixed(500 * MS), new Value.Constant(1L), 0, null, 20 * MS),
                call("b", List.of(), new Latency.Fixed(1000 * MS))));
        assertThat(RequestTimes.draw(timesOut, 1, 1, 2, true).serialNanos()).containsOnly(20 * MS);
        assertThat(RequestTimes.draw(timesOut, 1, 1, 2, true).criticalPathNanos()).containsOnly(20 * MS);
    }

    @Test
    void draw_waitingForEveryCall_aFailedCallCountsItsWholeTime() {
        RequestTimes t = RequestTimes.draw(sideBySideThenSlow(), 1, 1, 3, false);
        assertThat(t.serialNanos()).containsOnly(1110 * MS);
        assertThat(t.criticalPathNanos()).containsOnly(1100 * MS);
        assertThat(t.levelledPathNanos()).containsOnly(1100 * MS);
        // the graph's expected times, which a prediction reads when nothing is drawn, say the same
        assertThat(sideBySideThenSlow().serialNanos()).isEqualTo(1110 * MS);
        assertThat(sideBySideThenSlow().criticalPathNanos()).isEqualTo(1100 * MS);
    }

    @Test
    void forPrediction_drawsForAFailFastModelWhenACallMayFail_elseOnlyForDrawnLatencies() {
        Graph fixed = forkThenCall(new Latency.Fixed(MS));
        assertThat(RequestTimes.mayFail(fixed)).isFalse();
        assertThat(RequestTimes.forPrediction(fixed, 1, 1, 5, true)).as("nothing varies").isNull();
        assertThat(RequestTimes.forPrediction(forkThenCall(new Latency.Uniform(MS, 2 * MS)), 1, 1, 5, false)).isNotNull();
        Graph failing = sideBySideThenSlow();
        assertThat(RequestTimes.mayFail(failing)).isTrue();
        assertThat(RequestTimes.isRandom(failing)).as("fixed latencies, attempted once").isFalse();
        assertThat(RequestTimes.forPrediction(failing, 1, 1, 5, false)).as("the expected times hold for a model that waits").isNull();
        assertThat(RequestTimes.forPrediction(failing, 1, 1, 5, true)).isEqualTo(RequestTimes.draw(failing, 1, 1, 5, true));
        // a timeout below a fixed latency always fires; one above it never does
        Graph slow = lone(new Latency.Fixed(500 * MS), 0, 20 * MS, Step.Attempts.ONCE);
        assertThat(RequestTimes.mayFail(slow)).isTrue();
        assertThat(RequestTimes.mayFail(lone(new Latency.Fixed(10 * MS), 0, 20 * MS, Step.Attempts.ONCE))).isFalse();
        assertThat(RequestTimes.mayFail(lone(new Latency.Uniform(MS, 50 * MS), 0, 20 * MS, Step.Attempts.ONCE))).isTrue();
    }
}
