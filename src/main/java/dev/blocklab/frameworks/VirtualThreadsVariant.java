package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Virtual threads: each request runs on its own virtual thread (a server with virtual request threads), which
 * forks the four blocking calls on virtual threads with {@code invokeAll} and merges on itself.
 */
final class VirtualThreadsVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("request-virtual-", 0).factory());

    VirtualThreadsVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
    }

    @Override public String name() { return "virtual"; }

    /** The request on its own virtual thread, which forks the calls as {@code invokeall} does, on virtual threads. */
    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(executor, () -> InvokeAllVariant.answer(backend, useCase, request, executor));
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return FrameworksUseCase.overlapping(d, "virtual threads unmount while waiting");
    }

    @Override public void close() { Tasks.shutdown(executor); }
}
