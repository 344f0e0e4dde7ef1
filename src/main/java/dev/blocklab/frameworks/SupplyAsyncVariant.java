package dev.blocklab.frameworks;

import dev.blocklab.result.Outcome;
import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;

/**
 * {@code CompletableFuture.supplyAsync} of the four blocking calls on an I/O pool of N, then
 * {@code allOf().get()} on the request thread, which merges.
 */
final class SupplyAsyncVariant extends IoPoolVariant {
    SupplyAsyncVariant(Backend backend, FrameworksUseCase useCase, int poolSize) {
        super(backend, useCase, "supplyasync", poolSize, "io");
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> CompletableFuture.completedFuture(answer(backend, useCase, request, io)));
    }

    /** The four calls by {@code supplyAsync} on {@code io}, {@code allOf().get()}, then both merges on the calling thread; also the JAX-RS resource's body. */
    @SuppressWarnings("unchecked")
    static String answer(Backend backend, FrameworksUseCase useCase, Request request, ExecutorService io) throws Exception {
        CompletableFuture<Object>[] f = new CompletableFuture[4];
        for (int i = 0; i < 4; i++) {
            int call = i;
            f[i] = CompletableFuture.supplyAsync(() -> Tasks.unchecked(
                    () -> backend.callBlocking(useCase.invocation(request, call))), io);
        }
        try {
            CompletableFuture.allOf(f).get();
        } catch (ExecutionException e) {
            Throwable cause = Outcome.unwrap(e);
            throw cause instanceof Exception ex ? ex : e;
        }
        return FrameworksUseCase.answer(
                useCase.postsAndComments(request, f[0].join(), f[1].join()),
                useCase.albumsAndPhotos(request, f[2].join(), f[3].join()));
    }

    /** {@code allOf} completes once every call has ended, a failed one included: the request waits for its siblings. */
    @Override public boolean failsFast() { return false; }

    @Override public Prediction predict(Demand d) {
        return formula(poolSize, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int poolSize, Demand d) {
        return FrameworksUseCase.overlapping(d, poolSize, "each call holds one of " + poolSize + " I/O threads");
    }
}
