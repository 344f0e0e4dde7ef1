package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** {@code supplyAsync} over a blocking call on the common pool (wrong) or on virtual threads (correct). */
final class CommonPoolSupplyAsync extends Case {
    CommonPoolSupplyAsync(boolean wrong) {
        super("supplyasync-common-pool", wrong, Rule.BLOCKING_ON_COMMON_POOL,
                "CompletableFuture.supplyAsync(blocking call) without an executor: it blocks a common-pool worker",
                "CompletableFuture.supplyAsync(blocking call, a virtual-thread-per-task executor)");
    }

    @Override public void run(int requests, long blockNanos) throws Exception {
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor()) {
            List<CompletableFuture<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                int n = i;
                calls.add(wrong()
                        ? CompletableFuture.supplyAsync(() -> { line = Lines.here(); LockSupport.parkNanos(blockNanos); return n; })
                        : CompletableFuture.supplyAsync(() -> { sleep(blockNanos); return n; }, virtual));
            }
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        }
    }
}
