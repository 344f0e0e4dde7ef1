package dev.blocklab.attack;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Vert.x 5's non-blocking HTTP/1.1 client: keep-alive connections on one event loop per core, at most
 * {@code maxConnections} per host (Vert.x queues the rest without bound); a Vert.x timer per request enforces
 * the whole-request timeout and resets the request when it fires.
 */
final class VertxTransport implements Transport {
    static {
        // Vert.x finds the SLF4J API on the class path without a binding; keep its three-line notice off stderr.
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final long timeoutMillis;
    private final Map<Target, Prepared> prepared = new ConcurrentHashMap<>();
    private final Context[] contexts;
    private final AtomicLong nextContext = new AtomicLong();

    private record Prepared(RequestOptions options, Buffer body, String label) {}

    VertxTransport(long timeoutNanos, int maxConnections) {
        int loops = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setWorkerPoolSize(1)
                .setBlockedThreadCheckInterval(10).setBlockedThreadCheckIntervalUnit(TimeUnit.SECONDS));
        this.timeoutMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        this.client = vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true).setPipelining(false)
                        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis)))
                .with(new PoolOptions().setHttp1MaxSize(maxConnections).setMaxWaitQueueSize(-1))
                .build();
        // One context per event loop; each send runs on one of them in turn, so the request, its connection,
        // its response and its timer share one thread (calling the client from a foreign thread lost responses).
        // A thread outside Vert.x keeps one sticky context, so each context is made on a short-lived thread of
        // its own, and the event loops are handed out in turn.
        this.contexts = new Context[loops];
        for (int i = 0; i < loops; i++) {
            int slot = i;
            Thread t = Thread.ofPlatform().start(() -> contexts[slot] = vertx.getOrCreateContext());
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the HTTP client", e);
            }
        }
    }

    private Prepared prepare(Target t) {
        RequestOptions o = new RequestOptions().setMethod(HttpMethod.valueOf(t.method()))
                .setHost(t.url().getHost()).setPort(t.port()).setURI(t.pathAndQuery());
        for (var h : t.headers()) o.addHeader(h.getKey(), h.getValue());
        return new Prepared(o, Buffer.buffer(t.bodyUnsafe()), t.label());
    }

    /**
     * Opens and closes one connection per distinct host and port, and prepares every target, so the classes of
     * the connect and request paths are loaded before the schedule's clock starts; on a cold JVM on a busy
     * machine that loading otherwise stalls the first second of the attack. Sends no HTTP request; an
     * unreachable target is ignored here (the attack then records its errors).
     */
    @Override public void warmUp(java.util.List<Target> targets) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.List<Future<Void>> connects = new java.util.ArrayList<>();
        for (Target t : targets) {
            prepared.computeIfAbsent(t, this::prepare);
            if (seen.add(t.url().getHost() + ":" + t.port())) {
                connects.add(client.connect(new HttpConnectOptions().setHost(t.url().getHost()).setPort(t.port())
                                .setConnectTimeout((int) Math.min(2_000, timeoutMillis)))
                        .compose(HttpClientConnection::close)
                        .recover(e -> Future.succeededFuture()));
            }
        }
        try {
            Future.all(connects).await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // warming up is best effort
        }
    }

    @Override public void send(Target target, Completion completion) {
        Prepared p = prepared.computeIfAbsent(target, this::prepare);
        contexts[(int) (nextContext.getAndIncrement() % contexts.length)].runOnContext(v -> sendOnContext(p, completion));
    }

    private void sendOnContext(Prepared p, Completion completion) {
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<HttpClientRequest> request = new AtomicReference<>();
        long timer = vertx.setTimer(timeoutMillis, id -> {
            if (done.compareAndSet(false, true)) {
                HttpClientRequest r = request.get();
                if (r != null) r.reset();
                completion.complete(0, 0, p.label() + ": timeout after " + timeoutMillis + "ms");
            }
        });
        client.request(new RequestOptions(p.options()))
                .compose(req -> {
                    request.set(req);
                    return req.send(p.body());
                })
                .compose(resp -> resp.body().map(body -> new long[]{resp.statusCode(), body.length()}))
                .onComplete(ar -> {
                    if (!done.compareAndSet(false, true)) return;
                    vertx.cancelTimer(timer);
                    if (ar.succeeded()) completion.complete((int) ar.result()[0], ar.result()[1], null);
                    else completion.complete(0, 0, p.label() + ": " + Transport.describe(ar.cause()));
                });
    }

    @Override public void close() {
        Future<Void> f = client.close().eventually(vertx::close);
        try {
            f.await(3, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing is best effort: the attack's results are already complete
        }
    }
}
