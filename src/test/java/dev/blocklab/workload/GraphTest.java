package dev.blocklab.workload;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class GraphTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void criticalPath_taskGraph_isFiveSecondsAndSerialSeven() {
        Graph g = BuiltInWorkloads.taskGraph(false).graph();
        assertThat(g.criticalPathNanos()).isEqualTo(5 * S);
        assertThat(g.serialNanos()).isEqualTo(7 * S);
        assertThat(g.callCount()).isEqualTo(4);
        assertThat(g.levels()).containsExactly(List.of(0), List.of(1, 2), List.of(3), List.of(4));
    }

    @Test
    void levelledPath_unbalancedGraph_exceedsTheCriticalPath() {
        // a (1 s) -> b (1 s); c (2 s) alone; d reads b and c. Levels: {a, c}, {b}, {d}: 2 + 1 = 3 s, chain 2 s
        Graph g = new Graph(0L, List.of(Step.Call.fixed("a", S, 1L), Step.Call.fixed("c", 2 * S, 1L),
                new Step.Call("b", List.of("a"), new Latency.Fixed(S), new Value.Sum(0), 0, null, 0),
                new Step.Combine("d", List.of("b", "c"), new Value.Sum(0))));
        assertThat(g.criticalPathNanos()).isEqualTo(2 * S);
        assertThat(g.levelledPathNanos()).isEqualTo(3 * S);
        assertThat(BuiltInWorkloads.taskGraph(false).graph().levelledPathNanos()).isEqualTo(5 * S);
    }

    @Test
    void criticalPath_profilePage_isTheLongestCall() {
        Graph g = BuiltInWorkloads.profilePage().graph();
        assertThat(g.criticalPathNanos()).isEqualTo(500 * MS);
        assertThat(g.serialNanos()).isEqualTo(1000 * MS);
    }

    @Test
    void constructor_rejectsForwardReferencesDuplicatesAndUnknownPlaceholders() {
        assertThatThrownBy(() -> new Graph(0L, List.of(
                new Step.Combine("a", List.of("b"), new Value.Sum(0)), Step.Call.fixed("b", MS, 1L))))
                .hasMessageContaining("step 'a' reads 'b'");
        assertThatThrownBy(() -> new Graph(0L, List.of(Step.Call.fixed("a", MS, 1L), Step.Call.fixed("a", MS, 1L))))
                .hasMessageContaining("'a' is used twice");
        assertThatThrownBy(() -> new Graph(0L, List.of(Step.Call.fixed("a", MS, 1L),
                new Step.Combine("c", List.of("a"), new Value.Format("{a} {b}")))))
                .hasMessageContaining("{b}");
        assertThatThrownBy(() -> new Graph(0L, List.of())).hasMessageContaining("at least one step");
    }

    @Test
    void request_drawsTheSameCallsWhateverTheOrder() {
        Graph g = BuiltInWorkloads.mixed().graph();
        Request r = new Request(12, g, 99, 10);
        CallInvocation first = r.invocation(1, List.of());
        r.invocation(0, List.of());
        assertThat(r.invocation(1, List.of())).isEqualTo(first);
        assertThat(new Request(13, g, 99, 10).invocation(1, List.of()).delayNanos()).isNotEqualTo(first.delayNanos());
    }

    @Test
    void request_scalesDelaysAndTimeouts() {
        Step.Call c = new Step.Call("c", List.of(), new Latency.Fixed(S), new Value.Constant(1L), 0, null, 300 * MS);
        CallInvocation inv = new Request(0, Graph.singleCall(c), 1, 100).invocation(0, List.of());
        assertThat(inv.delayNanos()).isEqualTo(10 * MS);
        assertThat(inv.timeoutNanos()).isEqualTo(3 * MS);
        assertThat(inv.timesOut()).isTrue();
        assertThat(inv.newFailure()).isInstanceOf(java.util.concurrent.TimeoutException.class);
    }

    @Test
    void logNormal_samplesMatchTheGivenPercentiles() {
        Latency.LogNormal l = new Latency.LogNormal(20 * MS, 200 * MS);
        SplittableRandom random = new SplittableRandom(1);
        long[] samples = new long[200_000];
        for (int i = 0; i < samples.length; i++) samples[i] = l.sampleNanos(random);
        java.util.Arrays.sort(samples);
        assertThat((double) samples[samples.length / 2]).isCloseTo(20 * MS, within(1.0 * MS));
        assertThat((double) samples[(int) (samples.length * 0.99)]).isCloseTo(200 * MS, within(15.0 * MS));
    }

    @Test
    void failureSpec_instantiatesTheConfiguredException() {
        Exception e = CallInvocation.instantiate(new Step.FailureSpec("java.io.IOException", "down"));
        assertThat(e).isInstanceOf(java.io.IOException.class).hasMessage("down");
        assertThat(CallInvocation.instantiate(new Step.FailureSpec("no.such.Type", "x")))
                .isInstanceOf(RuntimeException.class).hasMessage("no.such.Type: x");
    }

    @Test
    void durations_parseAndFormat() {
        assertThat(Durations.parseNanos("1.5s")).isEqualTo(1_500 * MS);
        assertThat(Durations.parseNanos("250us")).isEqualTo(250_000);
        assertThat(Durations.format(1_500 * MS)).isEqualTo("1.5s");
        assertThat(Durations.format(200 * MS)).isEqualTo("200ms");
        assertThatThrownBy(() -> Durations.parseNanos("10 parsecs")).hasMessageContaining("'10 parsecs' is not a duration");
    }

    @Test
    void durations_readable_roundsToOneDecimal_separatesThousands_spacesTheUnit() {
        assertThat(Durations.readable(4_574_525_000_000L)).isEqualTo("4,574.5 s");
        assertThat(Durations.readable(12_500 * 1_000 * MS)).isEqualTo("12,500 s");
        assertThat(Durations.readable(1_443 * MS)).isEqualTo("1.44 s");
        assertThat(Durations.readable(1_049 * MS)).isEqualTo("1.05 s");   // 8 threads / 1.049 s = 7.6/s reads true
        assertThat(Durations.readable(1_000 * MS)).isEqualTo("1 s");
        assertThat(Durations.readable(91_361_000)).isEqualTo("91.4 ms");
        assertThat(Durations.readable(100 * MS)).isEqualTo("100 ms");
        assertThat(Durations.readable(50_044)).isEqualTo("50 us");
        assertThat(Durations.readable(999)).isEqualTo("999 ns");
        assertThat(Durations.readable(0)).isEqualTo("0 ms");
    }

    @Test
    void cpuWork_isDeterministic() {
        assertThat(CpuWork.perform(Step.CpuKind.HASH, 10_000)).isEqualTo(CpuWork.perform(Step.CpuKind.HASH, 10_000));
        assertThat(CpuWork.perform(Step.CpuKind.SORT, 1000)).isNotEqualTo(CpuWork.perform(Step.CpuKind.SORT, 1001));
    }

    @Test
    void pathsAtATimeScale_divideSimulatedCallsOnly_aRealServersQueryRunsInRealTime() {
        // a 100 ms query beside a 1 s simulated call, at delays / 10: the query still takes 100 ms (it once
        // counted 10 ms, and run predicted 10 ms for a pool of 100 ms queries)
        Step.Call query = new Step.Call("report", List.of(), new Latency.Fixed(100 * MS), new Value.Constant(1L), 0, null,
                150 * MS, new Operation.Sql("select pg_sleep(0.1)", false));
        Step.Call simulated = new Step.Call("slow", List.of("report"), new Latency.Fixed(S), new Value.Sum(0), 0, null, 500 * MS);
        Graph g = new Graph(0L, List.of(query, simulated));
        // the simulated call's first attempt lasts at most its timeout: 500 ms, 50 ms at delays / 10
        assertThat(g.serialNanos(10)).isEqualTo(100 * MS + 50 * MS);
        assertThat(g.criticalPathNanos(10)).isEqualTo(150 * MS);
        assertThat(g.levelledPathNanos(10)).isEqualTo(150 * MS);
        assertThat(g.criticalPathNanos()).isEqualTo(600 * MS);

        Request r = new Request(1, g, 42, 10);
        assertThat(r.invocation(0, List.of()).timeoutNanos()).as("the query's own timeout, whole").isEqualTo(150 * MS);
        assertThat(r.invocation(0, List.of()).delayNanos()).isEqualTo(100 * MS);
        assertThat(r.invocation(1, List.of(1L)).timeoutNanos()).as("the simulated call's, divided").isEqualTo(50 * MS);
        assertThat(r.invocation(1, List.of(1L)).delayNanos()).isEqualTo(100 * MS);
    }
}
