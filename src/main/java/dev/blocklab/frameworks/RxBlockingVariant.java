package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

import java.util.concurrent.CompletableFuture;

/**
 * RxJava 3 as in the article's table: each blocking call is a {@code Single.fromCallable} subscribed on a pool
 * of N ({@code rx-io}), zipped in pairs with the merges and then joined; the request thread only assembles
 * the chain and subscribes (suspended response). The merges run on whichever rx-io thread delivered last.
 */
final class RxBlockingVariant extends IoPoolVariant {
    private final Scheduler scheduler;

    RxBlockingVariant(Backend backend, FrameworksUseCase useCase, int poolSize) {
        super(backend, useCase, "rx-blocking", poolSize, "rx-io");
        this.scheduler = Schedulers.from(io);
    }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> RxChains.response(request, useCase, call -> call(request, call)));
    }

    private Single<Object> call(Request request, int call) {
        // tryOnError: a call interrupted after the zip gave up (a sibling failed, or close) is dropped quietly
        // instead of reaching RxJava's global handler for undeliverable errors.
        return Single.<Object>create(emitter -> {
            try {
                emitter.onSuccess(backend.callBlocking(useCase.invocation(request, call)));
            } catch (Throwable t) {
                emitter.tryOnError(t);
            }
        }).subscribeOn(scheduler);
    }

    @Override public Prediction predict(Demand d) {
        return formula(poolSize, d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(int poolSize, Demand d) {
        return FrameworksUseCase.overlapping(d, poolSize, "each call holds one of " + poolSize + " rx-io threads");
    }
}
