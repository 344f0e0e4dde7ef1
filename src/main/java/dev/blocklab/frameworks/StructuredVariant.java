package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.preview.StructuredConcurrency;
import dev.blocklab.workload.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Structured concurrency: each request on its own virtual thread forks the four blocking calls in one scope
 * ({@link StructuredConcurrency#forkAll}); the first failure cancels the others; the merge runs on the request's
 * virtual thread.
 */
final class StructuredVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("request-virtual-", 0).factory());

    StructuredVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
    }

    @Override public String name() { return "structured"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return Tasks.submitInterruptibly(executor, () -> {
            List<Callable<Object>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int call = i;
                calls.add(() -> backend.callBlocking(useCase.invocation(request, call)));
            }
            List<Object> v = StructuredConcurrency.forkAll(calls);
            return FrameworksUseCase.answer(useCase.postsAndComments(request, v.get(0), v.get(1)),
                    useCase.albumsAndPhotos(request, v.get(2), v.get(3)));
        });
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return FrameworksUseCase.overlapping(d, "forked in one scope on virtual threads");
    }

    @Override public void close() { Tasks.shutdown(executor); }
}
