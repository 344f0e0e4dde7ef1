package dev.blocklab.backend;

import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

/**
 * Creates the lab's Vert.x instances. Routes Vert.x's and Netty's logs to {@code java.util.logging} (standard
 * error), so warnings such as Vert.x's blocked-thread checker are seen rather than lost in a logging facade
 * without a provider.
 */
public final class Vertxes {
    static {
        // one line per record, as blocklab's own messages are, instead of JUL's two-line default with a date
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null)
            System.setProperty("java.util.logging.SimpleFormatter.format", "blocklab: %4$s from %3$s: %5$s%6$s%n");
        if (System.getProperty("vertx.logger-delegate-factory-class-name") == null)
            System.setProperty("vertx.logger-delegate-factory-class-name", "io.vertx.core.logging.JULLogDelegateFactory");
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        // Formatting a log line loads the time zone from a file on first use. At file-descriptor exhaustion
        // (EMFILE) Netty's first warning would fail to open that file and the NoClassDefFoundError would kill
        // the acceptor thread for good; formatting one record now loads everything the warning needs.
        var warmUp = new java.util.logging.LogRecord(java.util.logging.Level.WARNING, "warm-up");
        warmUp.setThrown(new java.io.IOException("warm-up"));
        new java.util.logging.SimpleFormatter().format(warmUp);
    }

    private Vertxes() {}

    /** Sets up logging; call before any Vert.x or Netty class is used. Idempotent. */
    public static void init() {
        // the static initializer does the work
    }

    /**
     * One HTTP server per event loop of {@code vertx}, each made with {@code options} and {@code setUp} (its
     * handlers), listening on {@code host:port} from that loop's context; waits up to 30 s for each. A failure runs
     * {@code onFailure} (the owner's close) before it is thrown. A server listening from a thread outside Vert.x is
     * bound to one event-loop context, so a single server would read, parse and write every connection on one loop
     * while the others idle. Servers of one Vert.x instance on the same host and port share its socket, each new
     * connection going to the next of them; for port 0 (a free port) they listen on -1, Vert.x's port for one free
     * port shared by every server that asks for it (port 0 would give each server a port of its own).
     *
     * @return the servers, the first of which tells the port bound ({@code actualPort})
     * @throws IllegalArgumentException when the host does not resolve or is not this machine's (naming
     *                                  {@code --host}), or the port is in use or not allowed (naming {@code --port}),
     *                                  with the failure as its cause
     * @throws IllegalStateException    for any other failure, with its cause
     */
    public static java.util.List<io.vertx.core.http.HttpServer> listenOnEveryLoop(
            Vertx vertx, io.vertx.core.http.HttpServerOptions options, java.util.function.Consumer<io.vertx.core.http.HttpServer> setUp,
            String host, int port, Runnable onFailure) {
        var internal = (io.vertx.core.internal.VertxInternal) vertx;
        int shared = port == 0 ? -1 : port;
        var servers = new java.util.ArrayList<io.vertx.core.http.HttpServer>();
        try {
            for (var ignored : internal.nettyEventLoopGroup()) {
                var server = vertx.createHttpServer(options);
                setUp.accept(server);
                servers.add(server);
                awaitListening(internal.createEventLoopContext().succeededFuture().compose(v -> server.listen(shared, host)),
                        host, port);
            }
        } catch (RuntimeException e) {
            onFailure.run();
            throw e;
        }
        return java.util.List.copyOf(servers);
    }

    private static void awaitListening(io.vertx.core.Future<?> listening, String host, int port) {
        try {
            listening.toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting to listen on " + host + ":" + port, e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            for (Throwable t = cause; t != null; t = t.getCause())
                if (t instanceof java.net.UnknownHostException)
                    throw new IllegalArgumentException("--host: cannot resolve '" + host + "'", cause);
            String bindFailure = bindFailure(cause);
            // an address this machine does not have is the host's fault; a port in use or not allowed, the port's
            if (bindFailure != null)
                throw new IllegalArgumentException((bindFailure.contains("Cannot assign requested address") ? "--host " + host : "--port " + port)
                        + ": cannot listen on " + host + ":" + port + " (" + bindFailure + ")", cause);
            throw new IllegalStateException("cannot listen on " + host + ":" + port + ": " + cause, cause);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer within 30 s while starting to listen on " + host + ":" + port, e);
        }
    }

    /** Why binding failed ("Address already in use"), or null when {@code cause} is not a bind failure. */
    private static String bindFailure(Throwable cause) {
        if (cause instanceof java.net.BindException || cause instanceof java.net.SocketException) return cause.getMessage();
        // the native epoll transport's: "bind(..) failed with error(-98): Address already in use"
        if (cause instanceof io.netty.channel.unix.Errors.NativeIoException e && e.getMessage() != null
                && e.getMessage().startsWith("bind(")) {
            int reason = e.getMessage().lastIndexOf("): ");
            return reason < 0 ? e.getMessage() : e.getMessage().substring(reason + 3);
        }
        return null;
    }

    /**
     * Waits for a Vert.x future from a thread that is not an event loop.
     *
     * @param what what is awaited, for the error message ("closing the backend server")
     * @throws IllegalStateException when it fails (with its cause), times out, or the wait is interrupted
     */
    public static <T> T await(io.vertx.core.Future<T> future, int timeoutSeconds, String what) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(timeoutSeconds, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + what, e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException(what + " failed: " + cause, cause);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("no answer within " + timeoutSeconds + " s while " + what, e);
        }
    }

    /**
     * Waits at most {@code maxWait} for a closing future: false when it had not completed then (or the wait was
     * interrupted); a failure is reported on stderr in one line, not thrown.
     */
    public static boolean closedWithin(io.vertx.core.Future<?> closing, java.time.Duration maxWait, String what) {
        try {
            closing.toCompletionStage().toCompletableFuture().get(maxWait.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            System.err.println("blocklab: " + what + " failed: " + (e.getCause() != null ? e.getCause() : e));
        }
        return true;
    }

    /** Waits for a closing future; a failure or time-out is reported on stderr in one line, not thrown. */
    public static void awaitClose(io.vertx.core.Future<?> closing, int timeoutSeconds, String what) {
        if (!closedWithin(closing, java.time.Duration.ofSeconds(timeoutSeconds), what))   // an interrupted wait keeps the flag
            System.err.println("blocklab: " + (Thread.currentThread().isInterrupted() ? "interrupted while " + what
                    : "no answer within " + timeoutSeconds + " s while " + what));
    }

    /**
     * A new Vert.x instance with these options, on Netty's native epoll transport where it loads (Linux x86-64)
     * and on Java NIO elsewhere, or everywhere with {@code -Dblocklab.transport=nio} (for comparing the two).
     */
    public static Vertx create(VertxOptions options) {
        Vertx vertx = Vertx.vertx(options.setPreferNativeTransport(!"nio".equals(System.getProperty("blocklab.transport"))));
        vertx.exceptionHandler(Vertxes::unhandled);
        return vertx;
    }

    /**
     * A connection's exception handler that counts each error with {@code count}: most often an answer written after
     * the other side closed the connection (its time-out), which Vert.x would log one SEVERE line each for. Any
     * error that is not a closed or reset connection (a codec's, say) is also logged, the first of each type only.
     */
    public static io.vertx.core.Handler<Throwable> countingConnectionErrors(Runnable count) {
        java.util.Set<Class<?>> logged = java.util.concurrent.ConcurrentHashMap.newKeySet();
        return t -> {
            count.run();
            if (!(t instanceof java.io.IOException) && logged.add(t.getClass()))
                CONNECTION_LOG.log(java.util.logging.Level.WARNING, "an error on a connection (each later one of its type only counted)", t);
        };
    }

    private static final java.util.logging.Logger CONNECTION_LOG = java.util.logging.Logger.getLogger("io.vertx.core.net.impl.ConnectionBase");

    private static final java.util.logging.Logger CONTEXT_LOG = java.util.logging.Logger.getLogger("io.vertx.core.impl.ContextImpl");

    /**
     * An exception no handler took, logged as Vert.x logs it without this handler, but for one known to be harmless:
     * {@link #isPoolCancelNpe}.
     */
    static void unhandled(Throwable t) {
        if (!isPoolCancelNpe(t)) CONTEXT_LOG.log(java.util.logging.Level.SEVERE, "Unhandled exception", t);
    }

    /**
     * Vert.x 5.0's HTTP client, when a request waiting for a pooled connection times out after its pool was closed
     * (an attack's or a backend client's close with requests still waiting), fails the cancellation's callback with a
     * NullPointerException (a bitwise {@code &} where {@code &&} was meant: eclipse-vertx/vert.x#6263, fixed by #6266
     * in 5.1, still in 5.0.12). Nothing is left undone by it; unfiltered, each printed a 25-line stack trace.
     */
    static boolean isPoolCancelNpe(Throwable t) {
        if (!(t instanceof NullPointerException) || t.getStackTrace().length == 0) return false;
        StackTraceElement top = t.getStackTrace()[0];
        return top.getClassName().equals("io.vertx.core.http.impl.SharedHttpClientConnectionGroup$Request")
                && top.getMethodName().startsWith("lambda$onConnect");
    }

    /** The transport {@code vertx} runs on: {@code epoll} (native) or {@code nio}. */
    public static String transport(Vertx vertx) {
        return vertx.isNativeTransportEnabled() ? "epoll" : "nio";
    }
}
