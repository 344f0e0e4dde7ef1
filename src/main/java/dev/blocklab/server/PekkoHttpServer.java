package dev.blocklab.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.blocklab.backend.Backend;
import dev.blocklab.backend.HttpBackend;
import dev.blocklab.backend.SimulatedBackend;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.StatusCodes;
import org.apache.pekko.http.javadsl.server.Route;
import scala.util.Try;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.apache.pekko.http.javadsl.server.Directives.complete;
import static org.apache.pekko.http.javadsl.server.Directives.concat;
import static org.apache.pekko.http.javadsl.server.Directives.get;
import static org.apache.pekko.http.javadsl.server.Directives.onComplete;
import static org.apache.pekko.http.javadsl.server.Directives.path;

/**
 * The talk's three endpoints on Play's successor stack: Pekko HTTP 1.3 (the server Play 3 runs on) with its
 * routing DSL, on Pekko's default dispatcher exactly as configured by default (a fork-join pool of
 * {@code clamp(cores x 1.0, 8, 64)} threads, FIFO task peeking), which also runs the HTTP streams themselves, as
 * Play 3 runs its actions on it. Written as the talk wrote them: {@code /sync-blocking} completes the route with
 * the three calls made in a row on the dispatcher thread; {@code /async-blocking} wraps each blocking call in
 * {@code supplyAsync} with no executor (the common pool) and composes them, the last stage on the dispatcher;
 * {@code /async-non-blocking} composes futures that the backend completes from its timer or socket, holding no
 * thread while waiting. The endpoint code is {@link ProfilePage}'s, shared with {@code serve --profile play-2.5},
 * so the two servers differ only by the stack and the dispatcher.
 *
 * <p>Binds the given host (127.0.0.1 in the lab). {@link #close} unbinds, terminates the actor system and waits
 * for it; async-blocking calls still queued in the common pool are cancelled.
 */
public final class PekkoHttpServer implements AutoCloseable {
    static {
        // Pekko logs through SLF4J where present; without a provider SLF4J warns once on stderr
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }

    private final Backend backend;
    private final ProfilePage page;
    private final ActorSystem<Void> system;
    private final AtomicLong requestIds = new AtomicLong();
    private final String host;
    private ServerBinding binding;

    private PekkoHttpServer(String host, URI backendUri, long seed, long timeScaleDivisor) {
        this.host = host;
        this.backend = backendUri == null ? new SimulatedBackend() : new HttpBackend(backendUri);
        this.page = new ProfilePage(backend, seed, timeScaleDivisor, false); // as the talk's Play: no shedding
        Config config = ConfigFactory.parseString("""
                pekko.loglevel = "WARNING"
                pekko.stdout-loglevel = "WARNING"
                pekko.log-dead-letters = off
                pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
                """).withFallback(ConfigFactory.load());
        this.system = ActorSystem.create(Behaviors.empty(), "blocklab-pekko-http", config);
    }

    /**
     * Starts a server on {@code host:port} (port 0: any free port) and waits until it listens.
     *
     * @param backendUri        where the endpoints' calls go over HTTP, or null for the simulated backend
     * @param seed              seed of the calls' draws, as {@code serve --seed}
     * @param timeScaleDivisor  every call's delay divided by this
     */
    public static PekkoHttpServer start(String host, int port, URI backendUri, long seed, long timeScaleDivisor) {
        PekkoHttpServer server = new PekkoHttpServer(host, backendUri, seed, timeScaleDivisor);
        try {
            server.binding = Http.get(server.system).newServerAt(host, port).bind(server.routes())
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            return server;
        } catch (Exception e) {
            server.close();
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw new IllegalArgumentException("could not bind Pekko HTTP to " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** The routes; each inner route is built per request, on the dispatcher thread that runs the connection's stream. */
    private Route routes() {
        Executor dispatcher = system.executionContext();
        return concat(
                path("sync-blocking", () -> get(() -> {
                    try {
                        return complete(page.syncBlocking(requestIds.incrementAndGet()));
                    } catch (Exception e) {
                        return failed(e);
                    }
                })),
                path("async-blocking", () -> get(() ->
                        answer(page.asyncBlocking(requestIds.incrementAndGet(), dispatcher)))),
                path("async-non-blocking", () -> get(() ->
                        answer(page.asyncNonBlocking(requestIds.incrementAndGet(), dispatcher)))),
                path("health", () -> get(() -> complete("ok"))));
    }

    private static Route answer(CompletionStage<String> body) {
        return onComplete(body, (Try<String> t) -> t.isSuccess() ? complete(t.get()) : failed(t.failed().get()));
    }

    private static Route failed(Throwable failure) {
        Throwable root = dev.blocklab.result.Outcome.unwrap(failure);
        return complete(StatusCodes.INTERNAL_SERVER_ERROR, root.getClass().getName() + ": " + root.getMessage());
    }

    /** The bound port. */
    public int port() { return binding.localAddress().getPort(); }

    /** {@code http://HOST:PORT}. */
    public URI uri() { return URI.create("http://" + host + ":" + port()); }

    /** The default dispatcher's parallelism as Pekko computed it from its configuration and the cores. */
    public int dispatcherParallelism() {
        Config c = system.settings().config().getConfig("pekko.actor.default-dispatcher.fork-join-executor");
        int byFactor = (int) Math.ceil(Runtime.getRuntime().availableProcessors() * c.getDouble("parallelism-factor"));
        return Math.clamp(byFactor, c.getInt("parallelism-min"), c.getInt("parallelism-max"));
    }

    @Override public void close() {
        try {
            if (binding != null) binding.terminate(Duration.ofSeconds(1)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        } finally {
            page.cancelQueuedBlockingCalls();
            system.terminate();
            try {
                system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            }
            try {
                backend.close();
            } catch (Exception ignored) {
                // closing the client is best effort once the server is gone
            }
        }
    }
}
