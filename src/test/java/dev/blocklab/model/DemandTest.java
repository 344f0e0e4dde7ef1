package dev.blocklab.model;

import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DemandTest {
    private static final long MS = 1_000_000L;
    private static final Graph ONE_CALL = new Graph(0L, List.of(new Step.Call("c", List.of(), new Latency.Fixed(30 * MS),
            new Value.Constant(1L), 0, null, 0)));

    @Test
    void cpuFloor_aRequestsCpuRunsOnOneCore_requestsSpreadOverMinOfThreadsAndCores() {
        // one request alone: its 10 ms of CPU on one core, however many cores and threads
        assertThat(Demand.of(ONE_CALL, 1, 1, 10 * MS, 2).cpuFloor(8)).isEqualTo(10 * MS);
        // three requests on 2 cores: 30 ms of CPU over 2 cores (time-sliced threads end together at 15)
        assertThat(Demand.of(ONE_CALL, 3, 1, 10 * MS, 2).cpuFloor(8)).isEqualTo(15 * MS);
        // a hundred on 2 cores but one thread: one after another
        assertThat(Demand.of(ONE_CALL, 100, 1, 10 * MS, 2).cpuFloor(1)).isEqualTo(1000 * MS);
        assertThat(Demand.of(ONE_CALL, 100, 1, 10 * MS, 4).cpuFloor(8)).isEqualTo(250 * MS);
        assertThat(Demand.of(ONE_CALL, 100, 1, 0, 4).cpuFloor(8)).isZero();
    }
}
