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
