package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.preview.StructuredConcurrency;
import dev.blocklab.workload.Request;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A virtual thread per request (a server with virtual request threads), which forks the four blocking calls on
 * virtual threads and merges on itself. Two ways to fork, one variant each:
 * <ul>
 *   <li>{@code virtual}: {@code invokeAll} on the same virtual-thread-per-task executor, as {@code invokeall} does;</li>
 *   <li>{@code structured}: one structured scope ({@link StructuredConcurrency#forkAll}); the first failure cancels
 *       the others.</li>
 * </ul>
 */
final class VirtualRequestVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final boolean structured;
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("request-virtual-", 0).factory());

    VirtualRequestVariant(Backend backend, FrameworksUseCase useCase, boolean structured) {
        this.backend = backend;
        this.useCase = useCase;
        this.structured = structured;
    }

    @Override public String name() { return structured ? "structured" : "virtual"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        if (!structured) return Tasks.submitInterruptibly(executor, () -> InvokeAllVariant.answer(backend, useCase, request, executor));
        return Tasks.submitInterruptibly(executor, () -> {
            List<Object> v = StructuredConcurrency.forkAll(InvokeAllVariant.blockingCalls(backend, useCase, request));
            return FrameworksUseCase.answer(useCase.postsAndComments(request, v.get(0), v.get(1)),
                    useCase.albumsAndPhotos(request, v.get(2), v.get(3)));
        });
    }

    /** {@code structured}'s scope ends at the first failed call; {@code virtual}'s {@code invokeAll} waits for every call. */
    @Override public boolean failsFast() { return structured; }

    @Override public Prediction predict(Demand d) {
        return formula(structured, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(boolean structured, Demand d) {
        return FrameworksUseCase.overlapping(d, structured ? "forked in one scope on virtual threads" : "virtual threads unmount while waiting");
    }

    @Override public void close() { Tasks.shutdown(executor); }
}
