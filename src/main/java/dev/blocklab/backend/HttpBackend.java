package dev.blocklab.backend;

import dev.blocklab.workload.CallInvocation;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.VertxInternal;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link Backend} port over real sockets: every call is a {@code GET /call?delayMicros=...} to a
 * {@link BackendServer}, in this process or another, which answers after the call's delay.
 *
 * <p>{@link #callBlocking} uses a plain blocking socket client: the calling thread sits in a socket read for the
 * whole delay, as it would in JDBC; it speaks HTTP/1.1 over kept-alive connections, one call per connection at a
 * time. {@link #callAsync} uses the Vert.x asynchronous HTTP client: the request is written by an event loop and
 * the future completes on that event loop when the answer arrives, holding no thread meanwhile; it multiplexes
 * calls over a few cleartext HTTP/2 connections (prior knowledge), as non-blocking clients do, so that thousands
 * of pending calls need neither thousands of sockets nor a storm of connection set-ups (a cold burst of 3,000
 * calls at about 1,000 a second took 10 s at the median over HTTP/1.1, 1.8 s over HTTP/2 on a busy 2-core box).
 *
 * <p>Values travel over the wire: the caller sends the call's answer as {@code value}, the backend echoes it, and
 * the echo is decoded to the answer's type ({@code String}, {@code Long}, {@code Integer}, {@code Double}).
 * A failing call asks for status 500 and raises its configured exception; a call whose timeout comes before its
 * delay times out in the client and raises {@link TimeoutException}.
 *
 * <p>{@link #routed(URI)} makes a backend whose successful calls go to the server's route of the call's name
 * instead ({@code GET /posts} for the call {@code posts}): the route decides the delay and the body, which may be
 * far larger than a URL can carry (the frameworks use case's 820 KB of photos), and the client still checks
 * that the body equals the call's value. Calls meant to fail still go to {@code /call}. The call's own delay is
 * not sent: routed mode is only right against routes made from the same workload
 * ({@code FrameworksUseCase.routes}), and call names must be usable as a path as they are.
 *
 * <p>Interruption: a platform thread blocked in a socket read notices an interrupt only when the read returns
 * (at the latest after the call's delay); a virtual thread is woken at once.
 */
public final class HttpBackend implements Backend {
    /** HTTP/2 streams the asynchronous client runs at once on one connection. */
    public static final int MAX_STREAMS_PER_CONNECTION = 10_000;
    /** How long a call without a timeout of its own waits for an answer: 10 s. */
    public static final long DEFAULT_CALL_TIMEOUT_NANOS = 10_000_000_000L;

    private final long defaultTimeoutNanos;

    private final URI base;
    private final String host;
    private final int port;
    private final BlockingHttpClient blocking;
    private final Vertx vertx;
    private final HttpClientAgent async;
    private final LongAdder calls = new LongAdder();
    private final Context[] contexts;
    private final AtomicLong nextContext = new AtomicLong();
    private final boolean routed;
    /** Call names a routed backend can use as a path as they are. */
    private static final java.util.regex.Pattern ROUTE_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9._-]+");

    /**
     * A backend at {@code base}, e.g. {@code http://127.0.0.1:9100}.
     *
     * @throws IllegalArgumentException when {@code base} is not an {@code http://host:port} URL
     */
    public HttpBackend(URI base) { this(base, false, DEFAULT_CALL_TIMEOUT_NANOS); }

    /**
     * A backend at {@code base} whose calls without a timeout of their own give up after
     * {@code defaultTimeoutNanos} (a backend that accepts and never answers must not hold a caller for ever).
     */
    public HttpBackend(URI base, long defaultTimeoutNanos) { this(base, false, defaultTimeoutNanos); }

    /**
     * A backend at {@code base} whose successful calls are {@code GET /NAME}, NAME being the call's name: the
     * server's route of that path answers with its own delay and body (see the class comment).
     *
     * @throws IllegalArgumentException when {@code base} is not an {@code http://host:port} URL
     */
    public static HttpBackend routed(URI base) { return new HttpBackend(base, true, DEFAULT_CALL_TIMEOUT_NANOS); }

    private HttpBackend(URI base, boolean routed, long defaultTimeoutNanos) {
        if (defaultTimeoutNanos <= 0) throw new IllegalArgumentException("the default call timeout must be positive");
        this.defaultTimeoutNanos = defaultTimeoutNanos;
        if (base == null || !"http".equals(base.getScheme()) || base.getHost() == null)
            throw new IllegalArgumentException("--backend-url: '" + base + "' is not an http://HOST:PORT URL");
        Vertxes.init();
        this.base = base;
        this.routed = routed;
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 80 : base.getPort();
        this.blocking = new BlockingHttpClient(host, port, 4096);
        int loops = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(loops));
        this.contexts = new Context[loops];
        // one context per event loop (getOrCreateContext would give this thread's one sticky context every time)
        for (int i = 0; i < loops; i++) contexts[i] = ((VertxInternal) vertx).createEventLoopContext();
        this.async = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setTcpNoDelay(true)
                        .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
                        .setHttp2MultiplexingLimit(MAX_STREAMS_PER_CONNECTION),
                new PoolOptions().setHttp2MaxSize(loops * 2).setMaxWaitQueueSize(-1));
    }

    @Override public String name() { return "http " + base + (routed ? " (routes by call name)" : ""); }

    @Override public Object callBlocking(CallInvocation call) throws Exception {
        calls.increment();
        BlockingHttpClient.Response r;
        try {
            r = blocking.get(path(call), call.budgetNanos(defaultTimeoutNanos, System.nanoTime()));
        } catch (TimeoutException e) {
            throw timedOut(call);
        }
        if (Thread.interrupted()) throw new InterruptedException();
        if (ranOutOfBudget(r.status(), r.text())) throw timedOut(call);
        return decode(call, r.status(), r.text());
    }

    /** Set when {@link #close} begins: calls made after it fail at once instead of reaching a closed client. */
    private volatile boolean closed;

    @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
        calls.increment();
        CompletableFuture<Object> result = new CompletableFuture<>();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(host).setPort(port)
                .setURI(path(call));
        long budgetNanos = call.budgetNanos(defaultTimeoutNanos, System.nanoTime());   // the request's deadline may come first
        options.setTimeout(Math.max(1, TimeUnit.NANOSECONDS.toMillis(budgetNanos + 999_999)));
        options.putHeader(BackendServer.BUDGET_HEADER, String.valueOf((budgetNanos + 999) / 1_000));   // the backend stops then too
        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        if (closed) return CompletableFuture.failedFuture(closedFailure(call));   // its event loops may be gone
        // made on an event loop, so the response's body handler is in place before the body can arrive
        contexts[(int) Math.floorMod(nextContext.getAndIncrement(), contexts.length)].runOnContext(ignored -> {
            if (closed) {   // a call made while the backend closes fails as a call, not as a stray event-loop error
                result.completeExceptionally(closedFailure(call));
                return;
            }
            async.request(options)
                        .compose(req -> {
                            sent.set(req);
                            return req.send();
                        })
                        .compose(resp -> resp.body().map(body -> {
                            try {
                                String text = body.toString(StandardCharsets.UTF_8);
                                if (ranOutOfBudget(resp.statusCode(), text)) throw timedOut(call);
                                return decode(call, resp.statusCode(), text);
                            } catch (Exception e) {
                                throw new WrappedFailure(e);
                            }
                        }))
                        .onComplete(value -> result.complete(value), failure -> {
                            if (failure instanceof WrappedFailure w) result.completeExceptionally(w.getCause());
                            else if (isTimeout(failure)) result.completeExceptionally(timedOut(call));
                            else result.completeExceptionally(new IOException("call '" + call.call() + "' to " + base + " failed: " + failure, failure));
                        });
        });
        result.whenComplete((v, e) -> {
            HttpClientRequest req = sent.get();
            if (result.isCancelled() && req != null) req.reset();
        });
        return result;
    }

    private IOException closedFailure(CallInvocation call) {
        return new IOException("call '" + call.call() + "' to " + base + ": the backend client is closed");
    }

    @Override public long callsStarted() { return calls.sum(); }

    @Override public void close() {
        closed = true;
        blocking.close();
        // the event loops close even when closing the client fails or times out
        Vertxes.awaitClose(async.close().eventually(vertx::close), 20, "closing the HTTP backend client");
    }

    /** The path this backend asks for: the call's route when routed and the call succeeds, else {@code /call?...}. */
    private String path(CallInvocation call) {
        if (routed && call.failure() == null) {
            if (!ROUTE_NAME.matcher(call.call()).matches())
                throw new IllegalArgumentException("call '" + call.call() + "' cannot be a route path (letters, digits, '.', '_', '-' only)");
            return "/" + call.call();
        }
        return pathAndQuery(call);
    }

    /** {@code /call?...} asking the backend for this call's delay, status and answer. */
    static String pathAndQuery(CallInvocation call) {
        StringBuilder q = new StringBuilder("/call?delayMicros=").append((call.delayNanos() + 500) / 1_000)
                .append("&status=").append(call.failure() != null ? 500 : 200)
                .append("&call=").append(URLEncoder.encode(call.call(), StandardCharsets.UTF_8));
        if (call.failure() == null && call.value() != null)
            q.append("&value=").append(URLEncoder.encode(String.valueOf(call.value()), StandardCharsets.UTF_8));
        return q.toString();
    }

    /** Turns the backend's answer into the call's value or failure. */
    static Object decode(CallInvocation call, int status, String body) throws Exception {
        if (call.failure() != null && status == 500) throw call.newFailure();
        if (status != 200)
            throw new IOException("call '" + call.call() + "': backend answered " + status + ": " + body);
        Object expected = call.value();
        Object value = switch (expected) {
            case null -> body;
            case String s -> body;
            case Long l -> Long.parseLong(body);
            case Integer i -> Integer.parseInt(body);
            case Double d -> Double.parseDouble(body);
            default -> body.equals(String.valueOf(expected)) ? expected : body;
        };
        if (!value.equals(expected) && expected != null)
            throw new IOException("call '" + call.call() + "': backend answered '" + body + "', expected '" + expected + "'");
        return value;
    }

    /** The backend's 504 for a call past the budget this client sent: the call timed out, as the client's own timer says. */
    private static boolean ranOutOfBudget(int status, String body) {
        return status == 504 && body.startsWith(BackendServer.BUDGET_RAN_OUT);
    }

    private long timeoutNanos(CallInvocation call) {
        return call.timeoutNanos() > 0 ? call.timeoutNanos() : defaultTimeoutNanos;
    }

    private Exception timedOut(CallInvocation call) {
        if (call.deadlineAtNanos() != 0 && System.nanoTime() - call.deadlineAtNanos() > -1_000_000L)   // the deadline came first
            return new TimeoutException("call '" + call.call() + "' stopped at its request's deadline");
        return call.timesOut() ? call.newFailure()
                : new TimeoutException("call '" + call.call() + "' timed out after " + timeoutNanos(call) / 1_000_000 + " ms"
                        + (call.timeoutNanos() > 0 ? "" : " (the default call timeout)"));
    }

    private static boolean isTimeout(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause())
            if (c instanceof TimeoutException || c.getClass().getSimpleName().contains("Timeout")) return true;
        return false;
    }

    /** Carries a decoding failure through Vert.x's future chain unchanged. */
    private static final class WrappedFailure extends RuntimeException {
        WrappedFailure(Exception cause) { super(cause); }
    }
}
