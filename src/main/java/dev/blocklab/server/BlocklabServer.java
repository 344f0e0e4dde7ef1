package dev.blocklab.server;

import dev.blocklab.result.Outcome;
import dev.blocklab.backend.Backend;
import dev.blocklab.backend.HttpBackend;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.backend.Vertxes;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.net.URI;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lab's HTTP server ({@code blocklab serve}): the talk's three endpoints, {@code /run/{workload}/{model}},
 * {@code /health} and {@code /metrics}, on Vert.x.
 *
 * <p>Implementation overview. Vert.x event loops accept connections and parse HTTP. For each request the event
 * loop looks up the endpoint; {@code /health} and {@code /metrics} are answered there. Every other endpoint goes
 * through the {@link RequestDispatcher}: if its bound is reached the request is answered 503 at once (shed),
 * otherwise the handler runs on the profile's threads (or inline, for {@code event-loop}). A handler either
 * answers on its own thread (sync endpoints) or returns a future that answers when it completes; the answer is
 * written by Vert.x on the connection's event loop, whatever thread calls {@code end}. Malformed HTTP is answered
 * 400 by the codec and the connection closed; other connections are unaffected.
 *
 * <p>Thread-safe. {@link #close()} stops accepting, interrupts handlers still running and releases every
 * thread the server started (not {@code ForkJoinPool.commonPool()}, which belongs to the JVM).
 */
public final class BlocklabServer implements AutoCloseable {
    private static final String TEXT = "text/plain; charset=utf-8";

    private final ServerSettings settings;
    private final Backend backend;
    private final ProfilePage profilePage;
    private final WorkloadRunner runner;
    private final RequestDispatcher dispatcher;
    private final ServerMetrics metrics = new ServerMetrics();
    private final Vertx vertx;
    private final HttpServer server;
    private final AtomicLong requestIds = new AtomicLong();

    private BlocklabServer(ServerSettings settings, Backend backend, java.util.List<dev.blocklab.workload.Workload> workloads) {
        Vertxes.init();
        this.settings = settings;
        this.backend = backend != null ? backend : settings.backend() == null ? new SimulatedBackend() : new HttpBackend(settings.backend());
        this.profilePage = new ProfilePage(this.backend, settings.seed(), settings.timeScaleDivisor());
        this.runner = new WorkloadRunner(this.backend, settings.seed(), settings.timeScaleDivisor(), workloads);
        this.dispatcher = new RequestDispatcher(settings.profile(), settings.queueCapacity());
        // Vert.x's own blocked-thread checker logs an event loop held over 200 ms (stack trace after 10 s).
        this.vertx = Vertxes.create(new VertxOptions()
                .setMaxEventLoopExecuteTime(200).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setWarningExceptionTime(10).setWarningExceptionTimeUnit(TimeUnit.SECONDS));
        this.server = vertx.createHttpServer(new HttpServerOptions()
                .setHost(settings.host()).setPort(settings.port()).setTcpNoDelay(true).setAcceptBacklog(4096)
                .setIdleTimeout(120).setIdleTimeoutUnit(TimeUnit.SECONDS));
        server.connectionHandler(c -> {
            metrics.connections.incrementAndGet();
            c.closeHandler(ignored -> metrics.connections.decrementAndGet());
        });
        server.invalidRequestHandler(req -> {
            metrics.malformed();
            HttpServerRequest.DEFAULT_INVALID_REQUEST_HANDLER.handle(req);
            metrics.answered("malformed", req.response().getStatusCode());
        });
        server.requestHandler(this::handle);
    }

    /**
     * Starts a server and waits until it listens.
     *
     * @throws IllegalArgumentException when the address cannot be bound (e.g. the port is in use)
     */
    public static BlocklabServer start(ServerSettings settings) { return start(settings, null, java.util.List.of()); }

    /**
     * As {@link #start(ServerSettings)}, calling {@code backend} (which the server then owns and closes) instead of
     * the one the settings name, and serving {@code workloads} (from files) under /run beside the built-in ones.
     */
    public static BlocklabServer start(ServerSettings settings, Backend backend, java.util.List<dev.blocklab.workload.Workload> workloads) {
        BlocklabServer s = new BlocklabServer(settings, backend, workloads);
        try {
            Vertxes.listen(s.server, settings.host(), settings.port());
            return s;
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** The bound port. */
    public int port() { return server.actualPort(); }

    /** {@code http://HOST:PORT}. */
    public URI uri() { return URI.create("http://" + settings.host() + ":" + port()); }

    public ServerSettings settings() { return settings; }

    /** The {@code /metrics} text, for callers in the same process. */
    public String metricsText() { return metrics.render(settings.profile(), dispatcher, runner.models()); }

    /** Requests answered 503 at once because the bound was reached. */
    public long shedCount() { return metrics.shedCount(); }

    /** Requests whose handler blocked an event loop. */
    public long eventLoopBlockingCount() { return metrics.eventLoopBlockingCount(); }

    private void handle(HttpServerRequest req) {
        String path = req.path();
        Context context = Vertx.currentContext();   // the connection's event loop: where event-loop continuations run
        switch (path) {
            case "/health" -> answer(req, "/health", 200, "ok", false);
            case "/metrics" -> {
                metrics.answered("/metrics", 200);
                req.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(metricsText());
            }
            case "/sync-blocking" -> dispatch(req, path, true, () -> {
                try {
                    answer(req, path, 200, profilePage.syncBlocking(requestIds.incrementAndGet()), true);
                } catch (Exception e) {
                    fail(req, path, e);
                }
            });
            case "/async-blocking" -> dispatch(req, path, false, () -> answerWhenDone(req, path,
                    profilePage.asyncBlocking(requestIds.incrementAndGet(), dispatcher.continuationExecutor(context))));
            case "/async-non-blocking" -> dispatch(req, path, false, () -> answerWhenDone(req, path,
                    profilePage.asyncNonBlocking(requestIds.incrementAndGet(), dispatcher.continuationExecutor(context))));
            default -> {
                if (path.startsWith("/run/")) handleRun(req, path);
                else answer(req, "other", 404, "not found: " + path
                        + " (try /sync-blocking, /async-blocking, /async-non-blocking, /run/{workload}/{model}, /health, /metrics)", false);
            }
        }
    }

    private void handleRun(HttpServerRequest req, String path) {
        String[] parts = path.substring("/run/".length()).split("/");
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            answer(req, "/run", 404, "use /run/{workload}/{model}, e.g. /run/profile-page/virtual", false);
            return;
        }
        String workload = parts[0], model = parts[1];
        dispatch(req, "/run", WorkloadRunner.blocksCaller(model), () -> {
            CompletionStage<Object> result;
            try {
                result = runner.submit(workload, model);
            } catch (WorkloadRunner.Rejected e) {
                answer(req, "/run", e.status, e.getMessage(), true);
                return;
            }
            answerWhenDone(req, "/run", result.thenApply(String::valueOf));
        });
    }

    /** Admits the request or sheds it; on the event-loop profile, times the handler and flags blocking ones. */
    private void dispatch(HttpServerRequest req, String endpoint, boolean blocks, Runnable unguarded) {
        Runnable handler = () -> {
            try {
                unguarded.run();
            } catch (RuntimeException e) {   // a handler answers its own failures; this is a bug's last resort
                fail(req, endpoint, e);
            }
        };
        Runnable run = handler;
        if (dispatcher.onEventLoop()) {
            run = () -> {
                if (blocks && metrics.blockedEventLoop(endpoint))
                    settings.log().accept("blocklab serve: warning: " + endpoint + " blocks an event loop (profile event-loop):"
                            + " every connection on that loop waits while it runs; counted in"
                            + " blocklab_event_loop_blocking_requests_total on /metrics");
                long start = System.nanoTime();
                try {
                    handler.run();
                } finally {
                    metrics.heldEventLoop(System.nanoTime() - start);
                }
            };
        }
        if (!dispatcher.tryDispatch(run)) {
            metrics.shed();
            metrics.answered(endpoint, 503);
            req.response().setStatusCode(503).putHeader("content-type", TEXT).putHeader("retry-after", "1")
                    .end("server busy: " + (settings.profile().queues() ? "request queue" : "requests in flight")
                            + " full (" + dispatcher.capacity() + "), try again later");
        }
    }

    private void answerWhenDone(HttpServerRequest req, String endpoint, CompletionStage<String> body) {
        body.whenComplete((text, failure) -> {
            if (failure == null) answer(req, endpoint, 200, text, true);
            else fail(req, endpoint, failure);
        });
    }

    private void fail(HttpServerRequest req, String endpoint, Throwable failure) {
        Throwable root = Outcome.unwrap(failure);
        if (root instanceof InterruptedException) Thread.currentThread().interrupt();
        answer(req, endpoint, 500, root.getClass().getName() + ": " + root.getMessage(), true);
    }

    private void answer(HttpServerRequest req, String endpoint, int status, String body, boolean admitted) {
        if (admitted) dispatcher.finished();
        metrics.answered(endpoint, status);
        try {
            req.response().setStatusCode(status).putHeader("content-type", TEXT).end(body);
        } catch (IllegalStateException closedOrEnded) {
            // the client went away; nothing to answer
        }
    }

    /** Stops accepting, stops the handler threads and models, and releases the backend. */
    @Override public void close() {
        Vertxes.awaitClose(vertx.close(), 10, "closing the server");
        profilePage.cancelQueuedBlockingCalls();
        dispatcher.close();
        runner.close();
        backend.close();
    }
}
