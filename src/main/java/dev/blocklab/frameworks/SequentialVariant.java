package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;

/** The four calls one after another on the request thread, then both merges there: the article's baseline. */
final class SequentialVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final RequestThreads requests = new RequestThreads();

    SequentialVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
    }

    @Override public String name() { return "sequential"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> CompletableFuture.completedFuture(answer(backend, useCase, request)));
    }

    /** The request on the calling thread: the four calls in a row, then both merges; also the JAX-RS resource's body. */
    static String answer(Backend backend, FrameworksUseCase useCase, Request request) throws Exception {
        Object posts = backend.callBlocking(useCase.invocation(request, FrameworksUseCase.POSTS));
        Object comments = backend.callBlocking(useCase.invocation(request, FrameworksUseCase.COMMENTS));
        Object albums = backend.callBlocking(useCase.invocation(request, FrameworksUseCase.ALBUMS));
        Object photos = backend.callBlocking(useCase.invocation(request, FrameworksUseCase.PHOTOS));
        return FrameworksUseCase.answer(
                useCase.postsAndComments(request, posts, comments), useCase.albumsAndPhotos(request, albums, photos));
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /** {@link #predict} without an instance: the registry entry's prediction. */
    static Prediction formula(Demand d) {
        return new Prediction(d.slowestNanos(Path.SERIAL), "one request alone: the four delays one after another, "
                + d.describe(Path.SERIAL) + ", plus the merge", Path.SERIAL);
    }

    @Override public void close() { requests.close(); }
}
