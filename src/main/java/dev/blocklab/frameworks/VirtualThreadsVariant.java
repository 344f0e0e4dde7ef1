package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

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

    @Override public CompletableFuture<Object> submit(Request request) {
        CompletableFuture<Object> response = new CompletableFuture<>();
        Future<?> task = executor.submit(() -> {
            try {
                response.complete(handle(request));
            } catch (Throwable t) {
                response.completeExceptionally(t);
            }
        });
        response.whenComplete((v, e) -> { if (e != null) task.cancel(true); });
        return response;
    }

    private Object handle(Request request) throws Exception {
        List<Callable<Object>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int call = i;
            calls.add(() -> backend.callBlocking(useCase.invocation(request, call)));
        }
        List<Future<Object>> done = executor.invokeAll(calls);
        Object[] v = new Object[4];
        try {
            for (int i = 0; i < 4; i++) v[i] = done.get(i).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        return FrameworksUseCase.answer(useCase.postsAndComments(request, v[0], v[1]), useCase.albumsAndPhotos(request, v[2], v[3]));
    }

    @Override public Prediction predict(Demand d) {
        return new Prediction(d.slowestNanos(Path.CRITICAL), "one request alone: the four calls overlap, "
                + d.describe(Path.CRITICAL) + "; virtual threads unmount while waiting", Path.CRITICAL);
    }

    @Override public void close() { Tasks.shutdown(executor); }
}
