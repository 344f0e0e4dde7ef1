package dev.blocklab.backend;

import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Request;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.blocklab.backend.SimulatedBackend.COALESCE_FROM_NANOS;
import static dev.blocklab.backend.SimulatedBackend.GRID_NANOS;
import static dev.blocklab.backend.SimulatedBackend.coalesced;
import static org.assertj.core.api.Assertions.assertThat;

class SimulatedBackendTest {

    private static final long MS = 1_000_000L;

    private static dev.blocklab.workload.Graph lone(double failure) {
        return dev.blocklab.workload.Graph.singleCall(new dev.blocklab.workload.Step.Call("c", List.of(),
                new dev.blocklab.workload.Latency.Fixed(20 * MS), new dev.blocklab.workload.Value.Constant(7L), failure,
                failure > 0 ? dev.blocklab.workload.Step.FailureSpec.DEFAULT : null, 0));
    }

    @Test
    void aCallThatDrawsNothing_isServedOffItsStep_asItsInvocationWouldBe() throws Exception {
        try (SimulatedBackend backend = new SimulatedBackend()) {
            long start = System.nanoTime();
            assertThat(backend.callBlocking(new Request(3, lone(0), 1, 10), 0, List.of())).isEqualTo(7L);
            assertThat(System.nanoTime() - start).as("20 ms / 10").isGreaterThanOrEqualTo(2 * MS);
            assertThat(backend.callsStarted()).isEqualTo(1);
            assertThat(backend.callsInFlight()).isZero();
            // a call that may fail goes through its invocation, and fails as it draws
            var failing = new Request(4, lone(1.0), 1, 10);
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> backend.callBlocking(failing, 0, List.of())))
                    .isInstanceOf(IllegalStateException.class).hasMessage("downstream failure");
            assertThat(backend.callsStarted()).isEqualTo(2);
            // interrupted, it gives up at once
            Thread.currentThread().interrupt();
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> backend.callBlocking(new Request(5, lone(0), 1, 10), 0, List.of())))
                    .isInstanceOf(InterruptedException.class);
            assertThat(backend.callsInFlight()).isZero();
        }
        try (SimulatedBackend recording = new SimulatedBackend(true)) {   // a backend that records calls records this one too
            recording.callBlocking(new Request(6, lone(0), 1, 100), 0, List.of());
            assertThat(recording.recordedCalls()).extracting(c -> c.requestId()).containsExactly(6L);
        }
    }

    @Test
    void theStepsPath_givesWhatTheInvocationsPathGives_valuesCountsAndFailures() throws Exception {
        var steps = List.<dev.blocklab.workload.Step>of(
                new dev.blocklab.workload.Step.Call("a", List.of(), new dev.blocklab.workload.Latency.Fixed(MS),
                        new dev.blocklab.workload.Value.Constant("x"), 0, null, 0),
                new dev.blocklab.workload.Step.Call("b", List.of("a"), new dev.blocklab.workload.Latency.Fixed(MS),
                        new dev.blocklab.workload.Value.Format("<{a}>"), 0, null, 0),
                new dev.blocklab.workload.Step.Call("c", List.of("input"), new dev.blocklab.workload.Latency.Fixed(MS),
                        new dev.blocklab.workload.Value.Sum(5), 0, null, 0),
                new dev.blocklab.workload.Step.Call("d", List.of("a"), new dev.blocklab.workload.Latency.Fixed(MS),
                        new dev.blocklab.workload.Value.Sum(5), 0, null, 0));   // a sum of text: the value fails
        var graph = new dev.blocklab.workload.Graph(10L, steps);
        for (long scale : new long[] {1, 10, 100}) {
            for (int step = 0; step < steps.size(); step++) {
                Request request = new Request(9, graph, 1, scale);
                List<Object> inputs = request.inputsOf(step, new Object[] {"x", "<x>", null, null});
                try (SimulatedBackend viaStep = new SimulatedBackend(); SimulatedBackend viaInvocation = new SimulatedBackend()) {
                    Object a = null, b = null;
                    Throwable fa = null, fb = null;
                    try { a = viaStep.callBlocking(request, step, inputs); } catch (Exception e) { fa = e; }
                    try { b = viaInvocation.callBlocking(request.invocation(step, inputs)); } catch (Exception e) { fb = e; }
                    assertThat(a).as("step %d, scale %d", step, scale).isEqualTo(b);
                    assertThat(fa == null ? null : fa.getClass()).as("failure of step %d", step).isEqualTo(fb == null ? null : fb.getClass());
                    assertThat(viaStep.callsStarted()).as("calls of step %d", step).isEqualTo(viaInvocation.callsStarted());
                    assertThat(viaStep.callsInFlight()).isZero();
                }
            }
        }
    }

    @Test
    void aShortWaitStaysExact() {
        assertThat(coalesced(COALESCE_FROM_NANOS - 1, 123_456_789L)).isEqualTo(COALESCE_FROM_NANOS - 1);
        assertThat(coalesced(5_000_000, -987_654_321L)).isEqualTo(5_000_000);
    }

    @Test
    void aLongWaitEndsOnTheNextWholeMillisecondAndNeverEarly() {
        for (long now : new long[] {0, 1, 999_999, 1_000_000, 123_456_789L, -123_456_789L, -1, Long.MIN_VALUE / 4}) {
            for (long wait : new long[] {COALESCE_FROM_NANOS, 200_000_000L, 500_000_001L}) {
                long coalesced = coalesced(wait, now);
                assertThat(Math.floorMod(now + coalesced, GRID_NANOS)).as("deadline on the grid, now %d", now).isZero();
                assertThat(coalesced).as("now %d wait %d", now, wait).isBetween(wait, wait + GRID_NANOS - 1);
            }
        }
    }

    @Test
    void callsStartedWithinOneMillisecondShareTheirDeadline() {
        long now = 40_000_100_000L;   // 0.1 ms past a whole millisecond
        long first = now + coalesced(300_000_000L, now);
        long later = now + 800_000;
        assertThat(later + coalesced(300_000_000L, later)).isEqualTo(first);
    }

    @Test
    void aCoalescedCallStillWaitsItsWholeDelay() throws Exception {
        var graph = BuiltInWorkloads.profilePage().graph();
        Request request = new Request(7, graph, 1, 2);   // time scale 1/2: the user call waits 100 ms, coalesced
        var call = request.invocation(graph.indexOf("user"), List.of());
        assertThat(call.waitNanos()).isGreaterThanOrEqualTo(COALESCE_FROM_NANOS);
        try (SimulatedBackend backend = new SimulatedBackend()) {
            long start = System.nanoTime();
            Object value = backend.callAsync(call).get(10, TimeUnit.SECONDS);
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(call.waitNanos());
            assertThat(value).isEqualTo(call.value());
            assertThat(backend.callsInFlight()).isZero();
        }
    }
}
