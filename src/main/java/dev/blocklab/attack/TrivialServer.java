package dev.blocklab.attack;

import dev.blocklab.backend.Vertxes;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A trivial HTTP endpoint for measuring the attacker itself: every request gets {@code 200 ok} at once, on
 * Vert.x event loops bound to 127.0.0.1. Used by tests and by the benchmark in docs/attack.md:
 * {@code java -cp target/blocklab.jar dev.blocklab.attack.TrivialServer 8080 [event-loops] [seconds]}.
 * {@code /status/NNN} answers with status NNN; {@code /delay/MS} answers {@code 200 ok} after MS milliseconds
 * (a Vert.x timer: a slow target that holds no thread).
 */
public final class TrivialServer implements AutoCloseable {
    static {
        // Vert.x finds the SLF4J API on the class path without a binding; keep its three-line notice off stderr.
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }

    private static final Buffer OK = Buffer.buffer("ok\n");
    private final Vertx vertx;
    private final HttpServer server;

    private TrivialServer(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    /**
     * Starts on 127.0.0.1:{@code port} (0 picks a free port) with {@code eventLoops} threads, a listener on each.
     *
     * @throws IllegalArgumentException when the port is in use or not allowed
     */
    public static TrivialServer start(int port, int eventLoops) {
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(eventLoops).setWorkerPoolSize(1));
        // Strict thread mode, as the lab's server: every answer is written on its connection's event loop (the
        // delay's timer runs there too), so Vert.x gives no connection a queue for writes from other threads.
        var options = new io.vertx.core.http.HttpServerOptions().setStrictThreadMode(true).setHttp2ClearTextEnabled(false);
        // a write after its client closed the connection (the client's time-out) is nothing to report for a null target
        var servers = Vertxes.listenOnEveryLoop(vertx, options, server -> server.connectionHandler(c -> c.exceptionHandler(ignored -> {}))
                .requestHandler(req -> {
                    String path = req.path();
                    if (path.startsWith("/delay/")) {
                        long ms = Long.parseLong(path.substring(7));
                        vertx.setTimer(Math.max(1, ms), id -> req.response().putHeader("content-type", "text/plain").end(OK));
                        return;
                    }
                    int status = path.startsWith("/status/") ? Integer.parseInt(path.substring(8)) : 200;
                    req.response().setStatusCode(status).putHeader("content-type", "text/plain").end(OK);
                }), "127.0.0.1", port, () -> Vertxes.awaitClose(vertx.close(), 10, "closing the trivial server"));
        return new TrivialServer(vertx, servers.getFirst());
    }

    /** The bound port. */
    public int port() { return server.actualPort(); }

    @Override public void close() {
        Vertxes.awaitClose(vertx.close(), 10, "closing the trivial server");
    }

    /** {@code TrivialServer PORT [EVENT_LOOPS] [SECONDS]}: serves for SECONDS (default 600), then exits. */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        int loops = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        long seconds = args.length > 2 ? Long.parseLong(args[2]) : 600;
        try (TrivialServer s = start(port, loops)) {
            System.out.println("trivial server on http://127.0.0.1:" + s.port() + "/ for " + seconds + "s");
            new CountDownLatch(1).await(seconds, TimeUnit.SECONDS);
        }
    }
}
