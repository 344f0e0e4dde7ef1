package dev.blocklab.server;

import dev.blocklab.result.Outcome;
import dev.blocklab.backend.Backend;
import dev.blocklab.backend.HttpBackend;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.backend.Vertxes;
import dev.blocklab.model.Tasks;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;

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
 * thread the server started (not {@code ForkJoinPool.commonPool()}, which belongs to the JVM), within one budget
 * for the whole stop; what is still closing when it runs out goes on closing on daemon threads and is named.
 */
public final class BlocklabServer implements AutoCloseable {
    private static final String TEXT = "text/plain; charset=utf-8";

    private final ServerSettings settings;
    private final Backend backend;
    private final ProfilePage profilePage;
    private final WorkloadRunner runner;
    private final RequestDispatcher dispatcher;
    private final ServerMetrics metrics = new ServerMetrics();
    /** Every connection's: counted, and the first error of each type that is not a closed connection logged. */
    private final io.vertx.core.Handler<Throwable> connectionErrors = Vertxes.countingConnectionErrors(metrics::connectionError);
    private final Vertx vertx;
    private final HttpServerOptions options;
    /** One HTTP server per event loop, all on the one port ({@link Vertxes#listenOnEveryLoop}); set once listening. */
    private java.util.List<HttpServer> servers;
    private final AtomicLong requestIds = new AtomicLong();
    /** Connections answered 400 and closing: requests pipelined behind the bad one are not run. */
    private final java.util.Set<io.vertx.core.http.HttpConnection> refusedConnections = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private BlocklabServer(ServerSettings settings, Backend backend, java.util.List<dev.blocklab.workload.Workload> workloads,
                           int maxHandlerThreads) {
        Vertxes.init();
        this.settings = settings;
        this.backend = backend != null ? backend : settings.backend() == null ? new SimulatedBackend()
                : new HttpBackend(settings.backend(), callTimeoutNanos(settings.timeScaleDivisor()));
        this.profilePage = new ProfilePage(this.backend, settings.seed(), settings.timeScaleDivisor(),
                settings.admission() == Admission.CODEL);
        this.runner = new WorkloadRunner(this.backend, settings.seed(), settings.timeScaleDivisor(), workloads, settings.requestTimeoutNanos());
        this.dispatcher = new RequestDispatcher(settings.profile(), settings.queueCapacity(), settings.admission(),
                maxHandlerThreads, settings.log());
        // Vert.x's own blocked-thread checker logs an event loop held over 200 ms (stack trace after 10 s).
        this.vertx = Vertxes.create(new VertxOptions()
                .setMaxEventLoopExecuteTime(200).setMaxEventLoopExecuteTimeUnit(TimeUnit.MILLISECONDS)
                .setWarningExceptionTime(10).setWarningExceptionTimeUnit(TimeUnit.SECONDS));
        // Netty starts an event loop's thread on its first task: start them all now, so that accepting and
        // serving connections never needs a new thread when the OS may have none left to give.
        for (var loop : ((io.vertx.core.internal.VertxInternal) vertx).nettyEventLoopGroup()) loop.execute(() -> { });
        // No cleartext HTTP/2 (h2c): the server speaks HTTP/1.x only, so a connection is an HTTP connection (and
        // counted) from its first byte, not once it has sent enough to tell HTTP/1 from HTTP/2. No WebSocket
        // compression either (the server has no WebSocket route): Vert.x otherwise puts a WebSocket extension
        // handler in every connection's pipeline, which every request and answer passes through.
        this.options = new HttpServerOptions()
                .setHost(settings.host()).setPort(settings.port()).setTcpNoDelay(true).setAcceptBacklog(4096)
                .setHttp2ClearTextEnabled(false)
                .setPerFrameWebSocketCompressionSupported(false).setPerMessageWebSocketCompressionSupported(false)
                .setIdleTimeout(120).setIdleTimeoutUnit(TimeUnit.SECONDS)
                // Answers are written on the connection's event loop only (onLoop): Vert.x then writes straight to
                // the channel instead of giving every connection a queue for writes from other threads (a JCTools
                // queue whose first chunk alone is 4.1 KB: 25 MB of live heap with 6,000 connections).
                .setStrictThreadMode(true);
    }

    /** One listener's handlers: every event loop's server has the same. */
    private void setUp(HttpServer server) {
        server.connectionHandler(c -> {
            StrictRequestDecoder.install(c, options);
            metrics.connections.incrementAndGet();
            // most often an answer written after its client closed the connection (the client's own time-out):
            // counted, where Vert.x would log each without a handler
            c.exceptionHandler(connectionErrors);
            c.closeHandler(ignored -> {
                metrics.connections.decrementAndGet();
                refusedConnections.remove(c);
            });
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
        return start(settings, backend, workloads, Integer.MAX_VALUE);
    }

    /**
     * Starts a server whose handler pool can start at most {@code maxHandlerThreads} threads: past that, starting
     * one throws the JVM's {@code OutOfMemoryError: unable to create native thread}, as at the OS thread limit
     * (a test hook: {@code ulimit -u} does not bind root, and binds every process of the user).
     */
    static BlocklabServer start(ServerSettings settings, int maxHandlerThreads) {
        return start(settings, null, java.util.List.of(), maxHandlerThreads);
    }

    private static BlocklabServer start(ServerSettings settings, Backend backend,
                                        java.util.List<dev.blocklab.workload.Workload> workloads, int maxHandlerThreads) {
        BlocklabServer s = new BlocklabServer(settings, backend, workloads, maxHandlerThreads);
        s.servers = Vertxes.listenOnEveryLoop(s.vertx, s.options, s::setUp, settings.host(), settings.port(), s::close);
        return s;
    }

    /**
     * The timeout of a backend call that has none of its own: 10 s scaled like every delay, at least 1 s (a cold
     * connection's set-up does not shrink with the scale).
     */
    static long callTimeoutNanos(long timeScaleDivisor) {
        return Math.max(1_000_000_000L, HttpBackend.DEFAULT_CALL_TIMEOUT_NANOS / timeScaleDivisor);
    }

    /** The bound port. */
    public int port() { return servers.getFirst().actualPort(); }

    /** {@code http://HOST:PORT}. */
    public URI uri() { return URI.create("http://" + settings.host() + ":" + port()); }

    public ServerSettings settings() { return settings; }

    /** The network transport the server runs on: {@code epoll} (Netty's native) or {@code nio}. */
    public String transport() { return dev.blocklab.backend.Vertxes.transport(vertx); }

    /** The {@code /metrics} text, for callers in the same process. */
    public String metricsText() { return metrics.render(settings.profile(), dispatcher, runner.models()); }

    /** Requests answered 503 at once because the bound was reached. */
    public long shedCount() { return metrics.shedCount(); }

    /** Requests whose handler blocked an event loop. */
    public long eventLoopBlockingCount() { return metrics.eventLoopBlockingCount(); }

    private void handle(HttpServerRequest req) {
        if (refusedConnections.contains(req.connection())) {
            req.connection().close();
            return;
        }
        String path = req.path();
        String problem = protocolProblem(req);
        if (problem != null) {
            metrics.malformed();
            answerAndClose(req, 400, problem);
            return;
        }
        if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
            metrics.answered("other", 405);
            req.response().setStatusCode(405).putHeader("allow", "GET, HEAD").putHeader("content-type", TEXT)
                    .end("method " + req.method().name() + " not allowed: every endpoint answers GET (and HEAD)");
            return;
        }
        Context context = Vertx.currentContext();   // the connection's event loop: where event-loop continuations run
        Work work = new Work();
        req.response().closeHandler(ignored -> work.cancel());
        if (settings.requestTimeoutNanos() > 0) armDeadline(req, metricsEndpoint(path), work);
        switch (path) {
            case "/health" -> answer(req, "/health", 200, "ok", false);
            case "/metrics" -> {
                metrics.answered("/metrics", 200);
                req.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(metricsText());
            }
            case "/sync-blocking" -> dispatch(req, path, true, () -> {
                try {
                    answer(req, path, 200, work.blocking(() -> profilePage.syncBlocking(requestIds.incrementAndGet())), true);
                } catch (Exception e) {
                    fail(req, path, e);
                }
            });
            case "/async-blocking" -> dispatch(req, path, false, () -> answerWhenDone(req, path, work.async(
                    profilePage.asyncBlocking(requestIds.incrementAndGet(), dispatcher.continuationExecutor(context)))));
            case "/async-non-blocking" -> dispatch(req, path, false, () -> answerWhenDone(req, path, work.async(
                    profilePage.asyncNonBlocking(requestIds.incrementAndGet(), dispatcher.continuationExecutor(context)))));
            default -> {
                if (path.startsWith("/run/")) handleRun(req, path, work);
                else answer(req, "other", 404, "not found: " + path
                        + " (try /sync-blocking, /async-blocking, /async-non-blocking, /run/{workload}/{model}, /health, /metrics)", false);
            }
        }
    }

    /**
     * What makes a request unsafe to serve, or null: both {@code Content-Length} and {@code Transfer-Encoding}
     * (the request-smuggling ambiguity, RFC 9112 section 6.3: reject rather than pick one), more than one
     * {@code Content-Length}, a chunked body (no endpoint takes one; refusing it at the head also answers a
     * malformed chunk with 400), or HTTP/1.1 without {@code Host} (RFC 9112 section 3.2).
     */
    static String protocolProblem(HttpServerRequest req) {
        var h = req.headers();
        if (h.contains(StrictRequestDecoder.LENGTH_CONFLICT) || (h.contains("transfer-encoding") && h.contains("content-length")))
            return "bad request: both Content-Length and Transfer-Encoding";
        if (h.getAll("content-length").size() > 1) return "bad request: more than one Content-Length";
        if (h.contains("transfer-encoding"))
            return "bad request: a chunked request body (every endpoint answers GET without a body)";
        if (req.version() == HttpVersion.HTTP_1_1 && !h.contains("host")) return "bad request: HTTP/1.1 without Host";
        return null;
    }

    /**
     * Runs {@code write} on the request's event loop, at once when already there: the server runs in Vert.x's
     * strict thread mode, where a response written from any other thread throws.
     */
    private static void onLoop(HttpServerRequest req, Runnable write) {
        var context = ((io.vertx.core.internal.http.HttpServerRequestInternal) req).context();
        if (context.executor().inThread()) write.run();
        else {
            try {
                context.runOnContext(ignored -> write.run());
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                // the server is closing and its event loops are gone: a handler thread that finished (or was
                // interrupted) after that has no connection left to answer on
            }
        }
    }

    private void answerAndClose(HttpServerRequest req, int status, String body) {
        refusedConnections.add(req.connection());
        metrics.answered("malformed", status);
        req.response().setStatusCode(status).putHeader("content-type", TEXT).putHeader("connection", "close").end(body)
                .onComplete(ignored -> req.connection().close());
    }

    private void handleRun(HttpServerRequest req, String path, Work work) {
        String[] parts = path.substring("/run/".length()).split("/");
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            answer(req, "/run", 404, "use /run/{workload}/{model}, e.g. /run/profile-page/virtual", false);
            return;
        }
        String workload = parts[0], model = parts[1];
        dispatch(req, "/run", dev.blocklab.model.ModelSpec.runsOnCaller(model), () -> {
            CompletionStage<Object> result;
            try {
                result = work.async(work.blocking(() -> runner.submit(workload, model, work.arrivedNanos)));
            } catch (WorkloadRunner.Rejected e) {
                answer(req, "/run", e.status, e.getMessage(), true);
                return;
            } catch (Exception e) {
                fail(req, "/run", e);
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
            } catch (Throwable e) {   // a handler answers its own failures; this is a bug's or the OS's last resort
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
        dispatcher.dispatch(run, why -> {
            metrics.shed();
            metrics.answered(endpoint, 503);
            String body = "server busy: " + why.reason + (why == RequestDispatcher.Refusal.QUEUE_DELAY ? ""
                    : " (" + dispatcher.capacity() + ")") + ", try again later";
            onLoop(req, () -> {
                try {
                    req.response().setStatusCode(503).putHeader("content-type", TEXT).putHeader("retry-after", "1").end(body);
                } catch (IllegalStateException closedOrEnded) {
                    // the client went away; nothing to answer
                }
            });
        });
    }

    private void answerWhenDone(HttpServerRequest req, String endpoint, CompletionStage<String> body) {
        body.whenComplete((text, failure) -> {
            if (failure == null) answer(req, endpoint, 200, text, true);
            else fail(req, endpoint, failure);
        });
    }

    /**
     * Answers a failed request with a status and a public reason: what failed, never an exception class, a
     * message from inside the server or a backend's address (those go to the log, once per kind).
     */
    private void fail(HttpServerRequest req, String endpoint, Throwable failure) {
        Throwable root = Outcome.unwrap(failure);
        if (root instanceof InterruptedException) Thread.currentThread().interrupt();
        if (req.response().ended()) {   // the deadline answered 504 and cancelled this work: nothing more to say or log
            dispatcher.finished();
            return;
        }
        int status;
        String reason;
        if (RequestDispatcher.isThreadStartFailure(root)) {
            dispatcher.threadStartFailed(root);
            status = 503;
            reason = "server busy: the OS refused a new thread, try again later";
        } else if (root instanceof ProfilePage.Shed) {
            metrics.shed();
            status = 503;
            reason = "server busy: " + root.getMessage() + ", try again later";
        } else if (root instanceof java.util.concurrent.TimeoutException) {
            status = 504;
            reason = "a downstream call timed out";
        } else if (root instanceof java.util.concurrent.CancellationException || root instanceof InterruptedException) {
            status = 503;
            reason = "request cancelled";
        } else if (root instanceof java.io.IOException) {
            status = 502;
            reason = "a downstream call failed";
        } else {
            status = 500;
            reason = "the request failed";
        }
        if (metrics.failedFirstTime(root.getClass().getName()))
            settings.log().accept("blocklab serve: " + endpoint + " answered " + status + " (" + reason + ") for "
                    + root.getClass().getName() + ": " + root.getMessage() + "; later ones of this kind are only counted");
        answer(req, endpoint, status, reason, true);
    }
    /**
     * The request's deadline ({@code --request-timeout}): a timer on the connection's event loop that answers 504
     * with the reason if nothing has answered yet, then cancels the request's work (a queued handler never runs,
     * a blocked one is interrupted, a pending future is cancelled, so the models cancel its calls).
     */
    private void armDeadline(HttpServerRequest req, String endpoint, Work work) {
        long nanos = settings.requestTimeoutNanos();
        long timer = vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)), id -> {
            if (req.response().ended() || req.response().closed()) return;
            String where = work.started() ? "still running" : "still waiting for a handler thread";
            metrics.answered(endpoint, 504);   // under the endpoint asked for, so its dashboard sees its timeouts
            metrics.deadlinePassed();
            try {
                req.response().setStatusCode(504).putHeader("content-type", TEXT)
                        .end("deadline of " + dev.blocklab.workload.Durations.format(nanos)
                                + " passed (--request-timeout): the request was " + where + "; its work is cancelled");
            } catch (IllegalStateException closedOrEnded) {
                // answered in the meantime
            }
            work.cancel();
        });
        req.response().endHandler(ignored -> vertx.cancelTimer(timer));
    }

    /** The {@code endpoint} label of a request for {@code path} in {@code blocklab_requests_total}, as its answer uses it. */
    static String metricsEndpoint(String path) {
        return switch (path) {
            case "/health", "/metrics", "/sync-blocking", "/async-blocking", "/async-non-blocking" -> path;
            default -> path.startsWith("/run/") || path.equals("/run") ? "/run" : "other";
        };
    }

    private void answer(HttpServerRequest req, String endpoint, int status, String body, boolean admitted) {
        if (admitted) dispatcher.finished();
        onLoop(req, () -> {
            if (req.response().ended()) return;   // the deadline answered first
            metrics.answered(endpoint, status);
            try {
                req.response().setStatusCode(status).putHeader("content-type", TEXT).end(body);
            } catch (IllegalStateException closedOrEnded) {
                // the client went away; nothing to answer
            }
        });
    }

    /**
     * One request's work, cancelled when its client disconnects before the answer: a handler blocked on its
     * behalf is interrupted (a platform thread in a socket read notices at the read's end or its timeout), a
     * pending future is cancelled. The interrupt never reaches the thread's next request ({@link Tasks.Runner}, as
     * the Scala model's requests).
     */
    private static final class Work {
        /** When the request arrived ({@link System#nanoTime}): its deadline counts from here. */
        final long arrivedNanos = System.nanoTime();
        private final Tasks.Runner handler = new Tasks.Runner();
        private java.util.concurrent.CompletableFuture<?> future;
        private boolean cancelled;

        <T> T blocking(java.util.concurrent.Callable<T> body) throws Exception { return handler.run(body); }

        <T> CompletionStage<T> async(CompletionStage<T> stage) {
            var f = stage.toCompletableFuture();
            boolean cancelNow;
            synchronized (this) {
                future = f;
                cancelNow = cancelled;
            }
            if (cancelNow) f.cancel(true);
            return f;
        }

        /** True once a handler thread runs the request or its future is pending. */
        synchronized boolean started() { return handler.running() || future != null; }

        void cancel() {
            java.util.concurrent.CompletableFuture<?> f;
            synchronized (this) {
                if (cancelled) return;
                cancelled = true;
                handler.interrupt();
                f = future;
            }
            if (f != null) f.cancel(true);
        }
    }

    /**
     * Stops accepting, stops the handler threads and models, and releases the backend, waiting up to 60 s in all
     * (an experiment's next step should not run beside this one's closing); what was abandoned then is said in one
     * line on stderr, and a part's failed close is thrown.
     */
    @Override public void close() {
        Stopped stopped = close(java.time.Duration.ofSeconds(60));
        if (!stopped.complete())
            System.err.println("blocklab: closing the server took over " + stopped.budget().toSeconds() + " s; abandoned " + String.join(", ", stopped.abandoned()));
        if (!stopped.failures().isEmpty()) {
            Throwable first = stopped.failures().getFirst();
            for (Throwable t : stopped.failures().subList(1, stopped.failures().size())) first.addSuppressed(t);
            if (first instanceof RuntimeException r) throw r;
            if (first instanceof Error e) throw e;
            throw new IllegalStateException(first);
        }
    }

    /**
     * What a stop left still closing when its budget ran out, one phrase a part ({@code 6,738 connections},
     * {@code the model of /run/profile-page/fixed:8}), and the parts whose close failed within it; both empty when
     * everything closed within it.
     */
    public record Stopped(java.time.Duration budget, java.util.List<String> abandoned, java.util.List<Throwable> failures) {
        public Stopped {
            abandoned = java.util.List.copyOf(abandoned);
            failures = java.util.List.copyOf(failures);
        }

        /** True when every part closed within the budget (a close that failed did end). */
        public boolean complete() { return abandoned.isEmpty(); }
    }

    /**
     * As {@link #close()}, within one budget for the whole stop. First cancels every request still queued or running
     * (the backlog is dropped, not drained); then, all until the same deadline and each on a thread of its own,
     * Vert.x closes the connections, the handler threads end and the models close; the backend closes once the
     * handlers and models are done, as their threads may still be calling it, or at the deadline if they are not.
     * What is still closing at the deadline is abandoned, not waited for: it goes on closing on daemon threads (a
     * process that exits next ends it) and is named in the answer; a close that fails after the deadline says so on
     * stderr. A close that fails within the budget is in the answer's failures, not thrown, so a caller's later
     * steps (stopping a database, printing findings) still run.
     */
    public Stopped close(java.time.Duration budget) {
        long deadlineNanos = System.nanoTime() + budget.toNanos();
        profilePage.cancelQueuedBlockingCalls();
        dispatcher.stop();
        var failures = new java.util.concurrent.ConcurrentLinkedQueue<Throwable>();
        var stopReturned = new java.util.concurrent.atomic.AtomicBoolean();
        Thread models = closer("blocklab-serve-close-models", "the models", runner::close, failures, stopReturned);
        Thread backendCloser = closer("blocklab-serve-close-backend", "the backend (" + backend.name() + ")", () -> {
            dispatcher.awaitStopped(remaining(deadlineNanos));
            joinUntil(models, deadlineNanos);
            backend.close();
        }, failures, stopReturned);
        // Vert.x's close asks Netty to close every connection from the calling thread before it returns its future:
        // 0.3-0.7 s for 7,000 connections at load 15 on 2 cores, which a wait begun after it could not bound
        io.vertx.core.Promise<Void> loops = io.vertx.core.Promise.promise();
        Thread.ofPlatform().daemon().name("blocklab-serve-close-vertx").start(() -> vertx.close().onComplete(loops));
        boolean loopsClosed = Vertxes.closedWithin(loops.future(), remaining(deadlineNanos), "closing the server");
        boolean handlersEnded = dispatcher.awaitStopped(remaining(deadlineNanos));
        boolean modelsClosed = joinUntil(models, deadlineNanos);
        boolean backendClosed = joinUntil(backendCloser, deadlineNanos);
        java.util.List<String> abandoned = new java.util.ArrayList<>();
        synchronized (stopReturned) {   // a closer failing from now on reports itself on stderr
            stopReturned.set(true);
            if (!loopsClosed) abandoned.add(count(metrics.connections.get(), "connection"));
            if (!handlersEnded) abandoned.add(dispatcher.running() > 0 ? count(dispatcher.running(), "running handler") : "the handler threads");
            if (!modelsClosed) for (String model : runner.open()) abandoned.add("the model of " + model);
            if (!backendClosed) abandoned.add("the backend (" + backend.name() + ")");
            return new Stopped(budget, abandoned, java.util.List.copyOf(failures));
        }
    }

    /** A daemon thread running {@code close}; its failure is kept for the stop's answer, or printed once it returned. */
    private static Thread closer(String name, String what, Runnable close, java.util.Queue<Throwable> failures,
                                 java.util.concurrent.atomic.AtomicBoolean stopReturned) {
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            try {
                close.run();
            } catch (Throwable e) {
                synchronized (stopReturned) {
                    if (stopReturned.get()) System.err.println("blocklab: closing " + what + " failed after the stop's budget: " + e);
                    else failures.add(e);
                }
            }
        });
    }

    private static boolean joinUntil(Thread thread, long deadlineNanos) {
        try {
            return thread.join(remaining(deadlineNanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static java.time.Duration remaining(long deadlineNanos) {
        return java.time.Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    /**
     * {@code 6,738 connections}, grouped by hand: a stop is often the first to format a number, and a Formatter's
     * first use loads its locale's data (25 ms on this 2-core machine at load 20, more when starved) out of the budget.
     */
    static String count(long n, String noun) {
        String digits = Long.toString(n);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < digits.length(); i++) {
            if (i > 0 && (digits.length() - i) % 3 == 0) b.append(',');
            b.append(digits.charAt(i));
        }
        return b + " " + noun + (n == 1 ? "" : "s");
    }
}
