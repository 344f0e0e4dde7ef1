package dev.blocklab.server;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.BuiltInWorkloads;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WorkloadRunnerDeadlineTest {
    @Test
    void aCallsDeadline_countsFromTheRequestsArrival_notFromWhenItsWorkStarts() throws Exception {
        // a request that waited 300 ms for a handler thread, under a 2 s deadline: the server answers 504 2 s after
        // its arrival, so its calls are told that instant (they were told 2 s from the start of the work)
        long deadline = TimeUnit.SECONDS.toNanos(2);
        SimulatedBackend backend = new SimulatedBackend(true);
        long arrived = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(300);
        try (WorkloadRunner runner = new WorkloadRunner(backend, 42, 100, List.of(), deadline)) {
            runner.submit(BuiltInWorkloads.hundredCalls().name(), "virtual", arrived).get(10, TimeUnit.SECONDS);
        }
        assertThat(backend.recordedCalls()).isNotEmpty()
                .allSatisfy(call -> assertThat(call.deadlineAtNanos()).isEqualTo(arrived + deadline));
    }
}
