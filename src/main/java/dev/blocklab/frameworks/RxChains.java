package dev.blocklab.frameworks;

import dev.blocklab.workload.Request;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;

import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * The RxJava chain both RxJava variants build; they differ only in how one call becomes a {@link Single}
 * (blocking on a pool, or a non-blocking future).
 */
final class RxChains {
    private RxChains() {}

    /**
     * Zips the calls in pairs with the two merges, then joins the texts; the merges run on whichever thread
     * delivered a pair's last call. Cancelling the returned future disposes of the chain.
     *
     * @param call makes the {@link Single} of one call, by its step index ({@link FrameworksUseCase#POSTS}, ...)
     */
    static CompletableFuture<Object> response(Request request, FrameworksUseCase useCase, IntFunction<Single<Object>> call) {
        Single<String> pc = Single.zip(call.apply(FrameworksUseCase.POSTS), call.apply(FrameworksUseCase.COMMENTS),
                (p, c) -> useCase.postsAndComments(request, p, c));
        Single<String> ap = Single.zip(call.apply(FrameworksUseCase.ALBUMS), call.apply(FrameworksUseCase.PHOTOS),
                (a, p) -> useCase.albumsAndPhotos(request, a, p));
        CompletableFuture<Object> response = new CompletableFuture<>();
        Disposable d = Single.zip(pc, ap, FrameworksUseCase::answer).subscribe(response::complete, response::completeExceptionally);
        response.whenComplete((v, e) -> { if (response.isCancelled()) d.dispose(); });
        return response;
    }
}
