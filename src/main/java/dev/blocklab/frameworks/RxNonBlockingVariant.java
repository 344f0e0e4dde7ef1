package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;
import io.reactivex.rxjava3.core.Scheduler;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * RxJava 3 over the non-blocking client (the original's later RxNetty form): each call is
 * {@code Single.fromCompletionStage(backend.callAsync(..))}, which holds no thread while waiting, observed on
 * a CPU pool of one thread per core ({@code rx-cpu}) where the zips run the merges. The request thread only
 * subscribes.
 */
final class RxNonBlockingVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final RequestThreads requests = new RequestThreads();
    private final ExecutorService cpu = RequestThreads.fixed("rx-cpu", Runtime.getRuntime().availableProcessors());
    private final Scheduler scheduler = Schedulers.from(cpu);

    RxNonBlockingVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
    }

    @Override public String name() { return "rx-nonblocking"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> RxChains.response(request, useCase, call -> call(request, call)));
    }

    private Single<Object> call(Request request, int call) {
        return Single.defer(() -> Single.fromCompletionStage(backend.callAsync(useCase.invocation(request, call))))
                .observeOn(scheduler);
    }

    /** What bounds a request beyond its critical path, for the prediction (the registry entry's too). */
    static final String HOW = "no thread waits";

    @Override public Prediction predict(Demand d) { return FrameworksUseCase.overlapping(d, HOW); }

    @Override public void close() {
        requests.close();
        Tasks.shutdown(cpu);
    }
}
