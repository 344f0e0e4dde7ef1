package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * {@code ExecutorService.invokeAll}: the request thread hands the four blocking calls to an I/O pool of N,
 * waits for all, then merges on itself.
 */
final class InvokeAllVariant extends IoPoolVariant {
    InvokeAllVariant(Backend backend, FrameworksUseCase useCase, int poolSize) {
        super(backend, useCase, "invokeall", poolSize, "io");
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> CompletableFuture.completedFuture(answer(backend, useCase, request, io)));
    }

    /** The four calls through {@code io.invokeAll}, then both merges on the calling thread; also the JAX-RS resource's body. */
    static String answer(Backend backend, FrameworksUseCase useCase, Request request, ExecutorService io) throws Exception {
        List<Future<Object>> done = io.invokeAll(blockingCalls(backend, useCase, request));
        Object[] v = new Object[4];
        try {
            for (int i = 0; i < 4; i++) v[i] = done.get(i).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        return FrameworksUseCase.answer(
                useCase.postsAndComments(request, v[0], v[1]), useCase.albumsAndPhotos(request, v[2], v[3]));
    }

    /** The four calls of {@code request}, each a blocking call to {@code backend}, in step order. */
    static List<Callable<Object>> blockingCalls(Backend backend, FrameworksUseCase useCase, Request request) {
        List<Callable<Object>> calls = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            int call = i;
            calls.add(() -> backend.callBlocking(useCase.invocation(request, call)));
        }
        return calls;
    }

    /** {@code invokeAll} returns once every call has ended: a failed call's request waits for its siblings. */
    @Override public boolean failsFast() { return false; }

    @Override public Prediction predict(Demand d) {
        return formula(poolSize, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int poolSize, Demand d) {
        return FrameworksUseCase.overlapping(d, poolSize, "each call holds one of " + poolSize + " I/O threads");
    }
}
