package dev.blocklab.backend;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.blocklab.report.Jsons;
import dev.blocklab.workload.Latency;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.net.URI;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * A latency-simulating HTTP service for downstream calls over real sockets ({@code blocklab backend}).
 *
 * <p>Every answer is delayed by a Vert.x timer on the event loop that received the request, so a pending answer
 * holds no thread, only a timer and its connection or HTTP/2 stream. It serves HTTP/1.1 and cleartext HTTP/2
 * (prior knowledge, up to 100,000 streams per connection); 20,000 pending answers on one event loop are measured
 * in {@code docs/server.md}.
 *
 * <p>Paths: each configured {@link Route}; {@code GET /call?delayMicros=D&status=S&bytes=B&value=V}, where the
 * caller decides the delay (not scaled again), status and body (the text {@code V}, or B filler bytes), as
 * {@link HttpBackend} uses it; {@code /stats}, the delivered delays per path (HdrHistogram percentiles, from
 * the request handler to the answer) beside the configured ones, and the pending-answer counts; {@code /health}.
 *
 * <p>Thread-safe; {@link #close()} stops the listener and the event loops.
 */
public final class BackendServer implements AutoCloseable {
    private static final String CALL = "/call";

    private final BackendSettings settings;
    private final Vertx vertx;
    private final HttpServerOptions options;
    /** One HTTP server per event loop, all on the one port ({@link Vertxes#listenOnEveryLoop}); set once listening. */
    private java.util.List<HttpServer> servers;
    private final Map<String, Route> routes = new HashMap<>();
    private final Map<String, Buffer> routeBodies = new HashMap<>();
    private final Map<String, DeliveredDelays> delays = new LinkedHashMap<>();
    private final AtomicLong pending = new AtomicLong();
    private final LongAccumulator maxPending = new LongAccumulator(Math::max, 0);
    private final AtomicLong requestCounter = new AtomicLong();
    private final java.util.concurrent.atomic.LongAdder connectionErrors = new java.util.concurrent.atomic.LongAdder();
    private final io.vertx.core.Handler<Throwable> connectionErrorHandler = Vertxes.countingConnectionErrors(connectionErrors::increment);

    private BackendServer(BackendSettings settings) {
        Vertxes.init();
        this.settings = settings;
        for (Route r : settings.routes()) {
            routes.put(r.path(), r);
            routeBodies.put(r.path(), r.body() != null ? Buffer.buffer(r.body()) : filler(r.bodyBytes()));
            delays.put(r.path(), new DeliveredDelays(scaled(r.delay(), settings.timeScaleDivisor())));
        }
        delays.put(CALL, new DeliveredDelays(null));
        vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(settings.eventLoops()));
        options = new HttpServerOptions()
                .setHost(settings.host()).setPort(settings.port())
                .setTcpNoDelay(true)
                .setHttp2ClearTextEnabled(true)
                .setInitialSettings(new Http2Settings().setMaxConcurrentStreams(100_000));
    }

    /** Starts the talk's three routes on 127.0.0.1 at {@code port} (0: a free one), in real time. */
    public static BackendServer start(int port) {
        return start(BackendSettings.defaults(port));
    }

    /**
     * Starts a backend and waits until it listens.
     *
     * @throws IllegalArgumentException when the address cannot be bound (for example, the port is in use)
     */
    public static BackendServer start(BackendSettings settings) {
        BackendServer backend = new BackendServer(settings);
        backend.servers = Vertxes.listenOnEveryLoop(backend.vertx, backend.options, server -> server
                        // most often an answer written after its caller closed the connection (the caller's time-out):
                        // counted in /stats, where Vert.x would log each without a handler
                        .connectionHandler(c -> c.exceptionHandler(backend.connectionErrorHandler))
                        .requestHandler(backend::handle),
                settings.host(), settings.port(), backend::close);
        return backend;
    }

    /** The bound port. */
    public int port() { return servers.getFirst().actualPort(); }

    /** {@code http://HOST:PORT}. */
    public URI uri() { return URI.create("http://" + settings.host() + ":" + port()); }

    /** Answers scheduled but not yet sent. */
    public long pending() { return pending.get(); }

    /** The most answers pending at once since start. */
    public long maxPending() { return maxPending.get(); }

    /** The settings it runs with. */
    public BackendSettings settings() { return settings; }

    /** The {@code /stats} document: pending counts, then per path the delivered and configured delays. */
    public Map<String, Object> stats() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", requestCounter.get());
        m.put("pending", pending.get());
        m.put("maxPending", maxPending.get());
        m.put("timeScaleDivisor", settings.timeScaleDivisor());
        m.put("connectionErrors", connectionErrors.sum());
        Map<String, Object> paths = new LinkedHashMap<>();
        delays.forEach((path, d) -> paths.put(path, d.snapshot()));
        m.put("paths", paths);
        return m;
    }

    private void handle(HttpServerRequest req) {
        long startNanos = System.nanoTime();
        long requestNumber = requestCounter.incrementAndGet();
        String path = req.path();
        Route route = routes.get(path);
        if (route != null) {
            SplittableRandom random = new SplittableRandom(requestNumber * 0x9E3779B97F4A7C15L);
            long delayNanos = scaled(route.delay(), settings.timeScaleDivisor()).sampleNanos(random);
            boolean fails = route.failureRate() > 0 && random.nextDouble() < route.failureRate();
            Buffer body = fails ? Buffer.buffer("simulated failure of " + path) : routeBodies.get(path);
            answerLater(req, startNanos, delayNanos, fails ? route.failureStatus() : route.status(), body, fails,
                    delays.get(path));
            return;
        }
        switch (path) {
            case CALL -> handleCall(req, startNanos);
            case "/stats" -> {
                try {
                    req.response().putHeader("content-type", "application/json")
                            .end(Jsons.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(stats()));
                } catch (JsonProcessingException e) {
                    req.response().setStatusCode(500).end(String.valueOf(e.getMessage()));
                }
            }
            case "/health" -> req.response().putHeader("content-type", "text/plain").end("ok");
            default -> req.response().setStatusCode(404).putHeader("content-type", "text/plain")
                    .end("no route " + path + " (configured: " + String.join(", ", routes.keySet()) + ", /call, /stats)");
        }
    }

    private void handleCall(HttpServerRequest req, long startNanos) {
        long delayMicros;
        int status, bytes;
        try {
            delayMicros = Long.parseLong(param(req, "delayMicros", "0"));
            status = Integer.parseInt(param(req, "status", "200"));
            bytes = Integer.parseInt(param(req, "bytes", "0"));
            if (delayMicros < 0 || delayMicros > 3_600_000_000L || status < 100 || status > 599 || bytes < 0 || bytes > 1 << 20)
                throw new NumberFormatException("out of range");
        } catch (NumberFormatException e) {
            req.response().setStatusCode(400).putHeader("content-type", "text/plain")
                    .end("/call needs delayMicros in [0, 3.6e9], status in [100, 599], bytes in [0, 1048576]");
            return;
        }
        String value = req.getParam("value");
        Buffer body = value != null ? Buffer.buffer(value) : filler(bytes);
        answerLater(req, startNanos, delayMicros * 1_000, status, body, status >= 400, delays.get(CALL));
    }

    /**
     * The caller's remaining budget in microseconds: a caller that will stop waiting after it says so, and an answer
     * that would come later is answered 504 when the budget runs out instead, so a call nobody waits for stops
     * holding a pending answer here.
     */
    public static final String BUDGET_HEADER = "X-Blocklab-Budget-Micros";
    /** How the 504 that answers a call past its budget begins. */
    static final String BUDGET_RAN_OUT = "budget ran out: the caller stops waiting after ";

    private void answerLater(HttpServerRequest req, long startNanos, long delayNanos, int status, Buffer body,
                             boolean failed, DeliveredDelays stats) {
        long budgetNanos = budgetNanos(req);
        if (budgetNanos > 0 && budgetNanos < delayNanos) {
            delayNanos = budgetNanos;
            status = 504;
            body = Buffer.buffer(BUDGET_RAN_OUT + budgetNanos / 1_000 + " us");
            failed = true;
        }
        answerAfter(req, startNanos, delayNanos, status, body, failed, stats);
    }

    /** The budget the caller sent in {@value #BUDGET_HEADER}, or 0 when none (or not a positive number). */
    private static long budgetNanos(HttpServerRequest req) {
        String v = req.getHeader(BUDGET_HEADER);
        if (v == null) return 0;
        try {
            long micros = Long.parseLong(v.trim());
            return micros > 0 && micros < 3_600_000_000L ? micros * 1_000 : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void answerAfter(HttpServerRequest req, long startNanos, long delayNanos, int status, Buffer body,
                             boolean failed, DeliveredDelays stats) {
        Runnable answer = () -> {
            stats.record(System.nanoTime() - startNanos, failed);   // first: a caller holding the answer finds it counted
            req.response().setStatusCode(status).putHeader("content-type", "text/plain").end(body);
        };
        if (delayNanos <= 0) {
            answer.run();
            return;
        }
        maxPending.accumulate(pending.incrementAndGet());
        vertx.timer(delayNanos, TimeUnit.NANOSECONDS).onComplete(ignored -> {
            pending.decrementAndGet();
            answer.run();
        });
    }

    private static String param(HttpServerRequest req, String name, String fallback) {
        String v = req.getParam(name);
        return v == null ? fallback : v;
    }

    private static Buffer filler(int bytes) {
        byte[] b = new byte[bytes];
        Arrays.fill(b, (byte) 'x');
        return Buffer.buffer(b);
    }

    static Latency scaled(Latency latency, long divisor) {
        return switch (latency) {
            case Latency.Fixed f -> new Latency.Fixed(f.nanos() / divisor);
            case Latency.Uniform u -> new Latency.Uniform(u.minNanos() / divisor, u.maxNanos() / divisor);
            case Latency.LogNormal l -> new Latency.LogNormal(Math.max(1, l.p50Nanos() / divisor), Math.max(1, l.p99Nanos() / divisor));
        };
    }

    /** Stops listening and releases the event loops; answers still pending are dropped. */
    @Override public void close() {
        Vertxes.awaitClose(vertx.close(), 10, "closing the backend server");
    }
}
