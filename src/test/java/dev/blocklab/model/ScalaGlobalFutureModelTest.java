package dev.blocklab.model;

import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import org.junit.jupiter.api.Test;
import scala.concurrent.ExecutionContext;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The real Scala futures: the global's configuration, and what {@code blocking { }} changes. */
class ScalaGlobalFutureModelTest {

    @Test
    void configuration_isTheGlobalContexts() {
        // the global is a pool of the same class; building it starts no thread
        ForkJoinPool global = (ForkJoinPool) ExecutionContext.global();
        assertThat(global.getClass()).isEqualTo(ExecutionContext.fromExecutorService(null).getClass());
        try (SimulatedBackend b = new SimulatedBackend();
             var model = (ScalaGlobalFutureModel) Models.create("scala-global-blocking", new ModelContext(b))) {
            assertThat(model.parallelism()).isEqualTo(global.getParallelism());
            if (System.getProperty("scala.concurrent.context.numThreads") == null
                    && System.getProperty("scala.concurrent.context.maxThreads") == null)
                assertThat(model.parallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
            if (System.getProperty("scala.concurrent.context.maxExtraThreads") == null)
                assertThat(model.maxBlockers()).isEqualTo(256);
        }
    }

    @Test
    void blocking_letsEveryCallWaitAtOnce_whilePlainBlockingQueuesOnTheCores() throws Exception {
        int parallelism = Runtime.getRuntime().availableProcessors();
        assumeTrue(parallelism <= 4, "needs a pool much smaller than the batch");
        // 20 calls of 200 ms: plain blocking takes ceil(20 / cores) waves; blocking { } one wave
        Graph graph = Graph.singleCall(Step.Call.fixed("c", 200_000_000L, 1L));
        double plain = batchSeconds("scala-global", graph, 20);
        double managed = batchSeconds("scala-global-blocking", graph, 20);
        assertThat(plain).isGreaterThanOrEqualTo(0.95 * Math.ceil(20.0 / parallelism) * 0.2);
        assertThat(managed).isGreaterThanOrEqualTo(0.19).isLessThan(plain);
    }

    private static double batchSeconds(String spec, Graph graph, int calls) throws Exception {
        try (SimulatedBackend b = new SimulatedBackend(); Model m = Models.create(spec, new ModelContext(b))) {
            long t0 = System.nanoTime();
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) futures.add(m.submit(new Request(i, graph, 1, 1)));
            for (var f : futures) assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(1L);
            return (System.nanoTime() - t0) / 1e9;
        }
    }
}
