package dev.blocklab.backend;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VertxesTest {

    private static String transportOf(String property) {
        String before = System.getProperty("blocklab.transport");
        if (property == null) System.clearProperty("blocklab.transport");
        else System.setProperty("blocklab.transport", property);
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(1));
        try {
            return Vertxes.transport(vertx);
        } finally {
            Vertxes.awaitClose(vertx.close(), 10, "closing a test Vert.x");
            if (before == null) System.clearProperty("blocklab.transport");
            else System.setProperty("blocklab.transport", before);
        }
    }

    @Test
    void create_usesNativeEpollWhereItLoads_andNioWhenAskedOrElsewhere() {
        // the native library ships for Linux x86-64 only (pom.xml); anywhere else Vert.x falls back to NIO
        boolean epoll = io.netty.channel.epoll.Epoll.isAvailable();
        assertThat(transportOf(null)).isEqualTo(epoll ? "epoll" : "nio");
        assertThat(transportOf("nio")).isEqualTo("nio");
        if (System.getProperty("os.name").equals("Linux") && System.getProperty("os.arch").equals("amd64"))
            assertThat(epoll).as("Netty's epoll on Linux x86-64: " + io.netty.channel.epoll.Epoll.unavailabilityCause()).isTrue();
    }

    @Test
    void listenOnEveryLoop_spreadsConnectionsOverTheLoops_onOneSharedFreePort() throws Exception {
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(3));
        try {
            var servers = Vertxes.listenOnEveryLoop(vertx, new io.vertx.core.http.HttpServerOptions(),
                    server -> server.requestHandler(req -> req.response().end(Thread.currentThread().getName())), "127.0.0.1", 0, () -> { });

            assertThat(servers).hasSize(3).extracting(io.vertx.core.http.HttpServer::actualPort)
                    .allMatch(p -> p > 0).containsOnly(servers.getFirst().actualPort());
            // one request on each of six new connections: the connections go to the servers in turn, each on its loop
            var loops = new java.util.TreeSet<String>();
            for (int i = 0; i < 6; i++) {
                try (var client = java.net.http.HttpClient.newHttpClient()) {
                    var answer = client.send(java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + servers.getFirst().actualPort() + "/"))
                                    .timeout(java.time.Duration.ofSeconds(10)).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                    loops.add(answer.body());
                }
            }
            assertThat(loops).hasSize(3).allMatch(name -> name.startsWith("vert.x-eventloop-thread-"));
        } finally {
            Vertxes.awaitClose(vertx.close(), 10, "closing a test Vert.x");
        }
    }

    @Test
    void listenOnEveryLoop_portInUse_namesThePort_andRunsTheOwnersClose() throws Exception {
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(1));
        try (var taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            var closed = new java.util.concurrent.atomic.AtomicBoolean();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> Vertxes.listenOnEveryLoop(vertx, new io.vertx.core.http.HttpServerOptions(),
                            server -> server.requestHandler(req -> req.response().end()), "127.0.0.1", taken.getLocalPort(), () -> closed.set(true)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--port " + taken.getLocalPort() + ": cannot listen on 127.0.0.1:" + taken.getLocalPort());
            assertThat(closed).isTrue();
        } finally {
            Vertxes.awaitClose(vertx.close(), 10, "closing a test Vert.x");
        }
    }

    /** Vert.x 5.0's known NPE on a pool waiter's cancellation is dropped; any other unhandled exception is logged. */
    @Test
    void unhandled_dropsOnlyTheKnownPoolCancelNpe() throws Exception {
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(1));
        try (var log = new dev.blocklab.LogCapture("io.vertx.core.impl.ContextImpl")) {
            NullPointerException known = new NullPointerException("Cannot invoke \"java.lang.Boolean.booleanValue()\" because \"res\" is null");
            known.setStackTrace(new StackTraceElement[]{new StackTraceElement(
                    "io.vertx.core.http.impl.SharedHttpClientConnectionGroup$Request", "lambda$onConnect$0", "x.java", 153)});
            IllegalStateException other = new IllegalStateException("a bug of ours");
            var done = new java.util.concurrent.CountDownLatch(1);
            vertx.runOnContext(v -> { throw known; });
            vertx.runOnContext(v -> { throw other; });
            vertx.runOnContext(v -> done.countDown());
            assertThat(done.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(log.records()).extracting(java.util.logging.LogRecord::getThrown).containsExactly(other);
            assertThat(Vertxes.isPoolCancelNpe(new NullPointerException())).isFalse();
        } finally {
            vertx.close().await();
        }
    }

    /** Every connection error is counted; only the first of each type that is not a closed connection is logged. */
    @Test
    void countingConnectionErrors_countsAll_logsTheFirstOfEachTypeButClosedConnections() {
        try (var log = new dev.blocklab.LogCapture("io.vertx.core.net.impl.ConnectionBase")) {
            var count = new java.util.concurrent.atomic.AtomicInteger();
            var handler = Vertxes.countingConnectionErrors(count::incrementAndGet);
            handler.handle(new java.nio.channels.ClosedChannelException());
            handler.handle(new java.io.IOException("Connection reset by peer"));
            handler.handle(new IllegalStateException("codec"));
            handler.handle(new IllegalStateException("codec again"));
            assertThat(count).hasValue(4);
            assertThat(log.records()).extracting(r -> r.getThrown().getMessage()).containsExactly("codec");
        }
    }
}
