package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.backend.Vertxes;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;
import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's event loop (Vert.x 5): each request is handled on one event loop, picked round-robin, as a Vert.x
 * HTTP server hands a connection's requests to the loop that owns it. On that loop the handler starts the four
 * non-blocking calls ({@code backend.callAsync}); each completion is brought back onto the same loop
 * ({@code Future.fromCompletionStage(stage, context)}), and the two merges, with their CPU step, run there as
 * an ordinary Vert.x handler would run them.
 *
 * <p>No thread waits, but a merge holds its loop for its whole CPU time (about 10 ms per request here, mostly
 * Jackson): every other request assigned to that loop, and every completion it must deliver, waits behind it.
 * Vert.x's rule "don't block the event loop" covers CPU work too; this variant breaks it on purpose, to show
 * what it costs.
 *
 * <p>Threads: one event loop per core, named by Vert.x {@code vert.x-eventloop-thread-N} (reported as
 * {@code event loop}), plus Vert.x's blocked-thread checker. There is no request-thread pool: an event-loop
 * server has none. {@link #close()} undeploys and closes the Vert.x instance and waits for it, up to 10 s.
 */
final class EventLoopVariant implements Model {
    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final Vertx vertx;
    private final List<Context> loops = new CopyOnWriteArrayList<>();
    private final AtomicLong next = new AtomicLong();

    EventLoopVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
        Vertxes.init();
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(cores));
        try {
            // one deployment instance per core: Vert.x gives each instance its own event-loop context, in turn
            Vertxes.await(vertx.deployVerticle(() -> context -> {
                loops.add(context);
                return Future.succeededFuture();
            }, new DeploymentOptions().setInstances(cores)), 10, "deploying the event-loop variant's handlers");
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override public String name() { return "vertx-event-loop"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        CompletableFuture<Object> response = new CompletableFuture<>();
        Context loop = loops.get((int) Math.floorMod(next.getAndIncrement(), loops.size()));
        loop.runOnContext(ignored -> {
            if (response.isDone()) return;   // timed out while queued behind a busy loop: start no calls
            List<CompletableFuture<Object>> started = new CopyOnWriteArrayList<>();
            response.whenComplete((v, e) -> {
                if (e != null) started.forEach(call -> call.cancel(true));
            });
            try {
                CompletableFuture<Object> posts = start(started, request, FrameworksUseCase.POSTS);
                CompletableFuture<Object> comments = start(started, request, FrameworksUseCase.COMMENTS);
                CompletableFuture<Object> albums = start(started, request, FrameworksUseCase.ALBUMS);
                CompletableFuture<Object> photos = start(started, request, FrameworksUseCase.PHOTOS);
                Future<Object> p = Future.fromCompletionStage(posts, loop), c = Future.fromCompletionStage(comments, loop);
                Future<Object> a = Future.fromCompletionStage(albums, loop), ph = Future.fromCompletionStage(photos, loop);
                // each map runs on the loop that completed the pair's last call: this request's loop
                Future<String> pc = Future.all(p, c).map(both -> useCase.postsAndComments(request, both.resultAt(0), both.resultAt(1)));
                Future<String> ap = Future.all(a, ph).map(both -> useCase.albumsAndPhotos(request, both.resultAt(0), both.resultAt(1)));
                Future.all(pc, ap).onComplete(
                        both -> response.complete(FrameworksUseCase.answer(both.resultAt(0), both.resultAt(1))),
                        response::completeExceptionally);
            } catch (Throwable t) {
                response.completeExceptionally(t);
            }
        });
        return response;
    }

    /** Starts one call and keeps it where a failed response will cancel it. */
    private CompletableFuture<Object> start(List<CompletableFuture<Object>> started, Request request, int call) {
        CompletableFuture<Object> f = backend.callAsync(useCase.invocation(request, call));
        started.add(f);
        return f;
    }

    /** What bounds a request beyond its critical path, for the prediction (the registry entry's too). */
    static final String HOW = "no thread waits, the merges hold the event loop";

    @Override public Prediction predict(Demand d) { return FrameworksUseCase.overlapping(d, HOW); }

    @Override public void close() { Vertxes.awaitClose(vertx.close(), 10, "closing the event-loop variant's Vert.x"); }
}
