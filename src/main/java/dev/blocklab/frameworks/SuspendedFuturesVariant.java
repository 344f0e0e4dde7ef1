package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Fully asynchronous, as the article's "@Suspended AsyncResponse" row: the request thread starts the four
 * blocking calls with {@code supplyAsync} on an I/O pool of N, chains both merges with
 * {@code thenCombineAsync} and the join with {@code thenAcceptBothAsync} on the same pool, and returns at once;
 * the response completes later on an I/O thread, no request thread waiting.
 */
final class SuspendedFuturesVariant extends IoPoolVariant {
    SuspendedFuturesVariant(Backend backend, FrameworksUseCase useCase, int poolSize) {
        super(backend, useCase, "cf-suspended", poolSize, "io");
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> response(backend, useCase, request, io));
    }

    /**
     * Starts the four calls and both merges on {@code io} and returns at once; the returned stage completes on an
     * I/O thread. Also the JAX-RS resource's body, which resumes its suspended {@code AsyncResponse} from it.
     */
    static CompletableFuture<Object> response(Backend backend, FrameworksUseCase useCase, Request request, ExecutorService io) {
        CompletableFuture<Object> posts = call(backend, useCase, request, FrameworksUseCase.POSTS, io);
        CompletableFuture<Object> comments = call(backend, useCase, request, FrameworksUseCase.COMMENTS, io);
        CompletableFuture<Object> albums = call(backend, useCase, request, FrameworksUseCase.ALBUMS, io);
        CompletableFuture<Object> photos = call(backend, useCase, request, FrameworksUseCase.PHOTOS, io);
        CompletableFuture<String> pc = posts.thenCombineAsync(comments, (p, c) -> useCase.postsAndComments(request, p, c), io);
        CompletableFuture<String> ap = albums.thenCombineAsync(photos, (a, p) -> useCase.albumsAndPhotos(request, a, p), io);
        CompletableFuture<Object> response = new CompletableFuture<>();
        pc.thenAcceptBothAsync(ap, (x, y) -> response.complete(FrameworksUseCase.answer(x, y)), io)
                .exceptionally(e -> {
                    response.completeExceptionally(e);
                    return null;
                });
        return response;
    }

    private static CompletableFuture<Object> call(Backend backend, FrameworksUseCase useCase, Request request, int call, ExecutorService io) {
        return CompletableFuture.supplyAsync(() -> Tasks.unchecked(
                () -> backend.callBlocking(useCase.invocation(request, call))), io);
    }

    /**
     * {@code thenCombineAsync} and {@code thenAcceptBothAsync} run once both their stages have ended, a failed one
     * included: the response fails when the slower of each pair has ended.
     */
    @Override public boolean failsFast() { return false; }

    @Override public Prediction predict(Demand d) {
        return formula(poolSize, d);
    }

    /**
     * {@link #predict} without an instance: the registry entry's prediction. As {@code invokeAll}'s, each call holding
     * one of the I/O threads; but the merges are tasks on the same first-come pool, queued when the calls end, and
     * the join a task queued when the merges end, each behind the calls of every request that arrived meanwhile:
     * under open load a request queues again twice after its calls ({@link Prediction#requeues}).
     */
    static Prediction formula(int poolSize, Demand d) {
        return FrameworksUseCase.overlapping(d, poolSize, "calls and merges share " + poolSize
                + " I/O threads, the merges then the join queued behind the calls already waiting").withRequeues(REQUEUES);
    }

    /** The merges ({@code thenCombineAsync}), then the join ({@code thenAcceptBothAsync}): two tasks in turn after the calls. */
    static final int REQUEUES = 2;
}
