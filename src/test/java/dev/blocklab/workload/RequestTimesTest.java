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
        RequestTimes t = RequestTimes.draw(g, 42, 1, 50);
        for (int id = 0; id < 50; id++) {
            Request r = new Request(id, g, 42, 1);
            long a = r.invocation(0, List.of()).delayNanos();
            long b = r.invocation(1, List.of()).delayNanos();
            long c = r.invocation(2, List.of(1L, 1L)).delayNanos();
            assertThat(t.serialNanos()[id]).isEqualTo(a + b + c);
            assertThat(t.criticalPathNanos()[id]).isEqualTo(Math.max(a, b) + c);
            assertThat(t.levelledPathNanos()[id]).isEqualTo(Math.max(a, b) + c);
        }
        assertThat(RequestTimes.draw(g, 42, 1, 50)).isEqualTo(t);
        assertThat(RequestTimes.draw(g, 43, 1, 50)).isNotEqualTo(t);
    }

    @Test
    void draw_timeScaleAndTimeoutApply() {
        Graph g = new Graph(0L, List.of(new Step.Call("slow", List.of(), new Latency.Fixed(500 * MS), new Value.Constant(1L), 0, null, 200 * MS)));
        RequestTimes t = RequestTimes.draw(g, 1, 10, 3);
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
        assertThatThrownBy(() -> RequestTimes.draw(forkThenCall(new Latency.Fixed(MS)), 1, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
