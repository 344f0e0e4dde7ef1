package dev.blocklab.frameworks;

import dev.blocklab.model.Tasks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Project Reactor over the non-blocking client: each call is {@code Mono.fromFuture(backend.callAsync(..))},
 * published on a CPU pool of one thread per core ({@code reactor-cpu}); {@code Mono.zip} pairs them for the
 * merges and joins the two texts. The request thread only subscribes.
 */
final class ReactorVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final RequestThreads requests = new RequestThreads();
    private final ExecutorService cpu = RequestThreads.fixed("reactor-cpu", Runtime.getRuntime().availableProcessors());
    private final Scheduler scheduler = Schedulers.fromExecutorService(cpu, "reactor-cpu");

    ReactorVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
    }

    @Override public String name() { return "reactor"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> {
            Mono<String> pc = Mono.zip(call(request, FrameworksUseCase.POSTS), call(request, FrameworksUseCase.COMMENTS))
                    .map(t -> useCase.postsAndComments(request, t.getT1(), t.getT2()));
            Mono<String> ap = Mono.zip(call(request, FrameworksUseCase.ALBUMS), call(request, FrameworksUseCase.PHOTOS))
                    .map(t -> useCase.albumsAndPhotos(request, t.getT1(), t.getT2()));
            return Mono.zip(pc, ap, FrameworksUseCase::answer).<Object>map(s -> s).toFuture();
        });
    }

    private Mono<Object> call(Request request, int call) {
        return Mono.fromFuture(() -> backend.callAsync(useCase.invocation(request, call))).publishOn(scheduler);
    }

    /** What bounds a request beyond its critical path, for the prediction (the registry entry's too). */
    static final String HOW = "no thread waits";

    @Override public Prediction predict(Demand d) { return FrameworksUseCase.overlapping(d, HOW); }

    @Override public void close() {
        requests.close();
        scheduler.dispose();
        Tasks.shutdown(cpu);
    }
}
