package dev.blocklab.attack;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each HTTP client's exchange against a scripted server on 127.0.0.1 that answers byte for byte what a test
 * says: the response framings a load tester meets (length, chunked, HEAD, interim 100, the server closing), one
 * connection reused for sequential requests, and the request's own bytes.
 */
class HttpExchangeTest {
    private static final long S = 1_000_000_000L;

    /** What one request got. */
    record Outcome(int status, long bytesIn, String error) {}

    private static Outcome send(Transport t, Target target) throws Exception {
        return sendAsync(t, target).get(10, TimeUnit.SECONDS);
    }

    private static CompletableFuture<Outcome> sendAsync(Transport t, Target target) {
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        t.send(target, (onWire, connWait, status, bytesIn, error) -> done.complete(new Outcome(status, bytesIn, error)));
        return done;
    }

    /** One connection at most, so one event loop carries every request and a reused connection shows. */
    private static Transport transport(AttackSettings.Client client, long timeoutNanos) {
        Target any = Target.get("http://127.0.0.1:1/");
        return Transport.create(AttackSettings.of(List.of(any), new dev.blocklab.workload.Arrival.Open(
                new dev.blocklab.load.Pacer.Constant(1), S)).withClient(client).withTimeoutNanos(timeoutNanos).withMaxConnections(1));
    }

    private static byte[] ascii(String s) { return s.getBytes(StandardCharsets.ISO_8859_1); }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void keepAlive_sequentialRequests_shareOneConnectionAndCountBodyBytes(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"));
             Transport t = transport(client, 5 * S)) {
            for (int i = 0; i < 3; i++) assertThat(send(t, Target.get(server.url("/a?b=c")))).isEqualTo(new Outcome(200, 5, null));
            assertThat(server.connections.get()).isEqualTo(1);
            assertThat(server.requests).hasSize(3);
            assertThat(server.requests.getFirst()).startsWith("GET /a?b=c HTTP/1.1\r\n").containsIgnoringCase("host: 127.0.0.1:" + server.port());
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void chunked_countsTheBodyAcrossChunksAndKeepsTheConnection(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n4\r\ndefg\r\n0\r\n\r\n"));
             Transport t = transport(client, 5 * S)) {
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(404, 7, null));
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(404, 7, null));
            assertThat(server.connections.get()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void connectionClose_theNextRequestOpensANewConnection(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"));
             Transport t = transport(client, 5 * S)) {
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
            assertThat(server.connections.get()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void head_aContentLengthWithoutABody_endsTheResponseAndTheConnectionStaysUsable(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii(i == 0 ? "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"
                : "HTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx"));
             Transport t = transport(client, 5 * S)) {
            Target head = new Target("HEAD", URI.create(server.url("/")), List.of(), new byte[0]);
            assertThat(send(t, head)).isEqualTo(new Outcome(200, 0, null));
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(201, 1, null));
            assertThat(server.connections.get()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void interim100_isSkippedForTheFinalResponse(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes"));
             Transport t = transport(client, 5 * S)) {
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 3, null));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void post_sendsTheBodyWithItsLengthAndTheTargetsHeaders(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
             Transport t = transport(client, 5 * S)) {
            Target post = new Target("POST", URI.create(server.url("/p")), List.of(Map.entry("X-Test", "1")), ascii("{\"a\":1}"));
            assertThat(send(t, post)).isEqualTo(new Outcome(200, 0, null));
            String req = server.requests.getFirst();
            assertThat(req).startsWith("POST /p HTTP/1.1\r\n").containsIgnoringCase("content-length: 7\r\n")
                    .contains("X-Test: 1\r\n").endsWith("\r\n\r\n{\"a\":1}");
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void serverClosesMidResponse_isAnErrorAndTheNextRequestStillSucceeds(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 ? ascii("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial")
                : ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"), true);
             Transport t = transport(client, 5 * S)) {
            Outcome first = send(t, Target.get(server.url("/")));
            assertThat(first.status()).isZero();
            assertThat(first.error()).isNotBlank();
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void bodyEndedByTheClose_succeedsAndTheNextRequestGetsANewConnection(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> ascii(i == 0 ? "HTTP/1.1 200 OK\r\n\r\nabc"
                : "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"), true);
             Transport t = transport(client, 5 * S)) {
            // the second waits for the only connection allowed, so it is queued when the first's body ends with the close
            CompletableFuture<Outcome> first = sendAsync(t, Target.get(server.url("/"))), second = sendAsync(t, Target.get(server.url("/")));
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(new Outcome(200, 3, null));
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(new Outcome(200, 2, null));
            assertThat(server.connections.get()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"VERTX", "NETTY"})
    void noAnswer_timesOutAndTheConnectionIsNotReused(AttackSettings.Client client) throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 ? null : ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
             Transport t = transport(client, S)) {   // 200 ms timed out the second request too, at load average 40
            Outcome first = send(t, Target.get(server.url("/slow")));
            assertThat(first.status()).isZero();
            assertThat(first.error()).contains("timeout after 1000ms");
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
            assertThat(server.connections.get()).as("the timed-out connection is closed, not reused").isEqualTo(2);
        }
    }

    /** What the scripted server answers to close the connection at once, without a byte of answer. */
    private static final byte[] CLOSE = new byte[0];

    @org.junit.jupiter.api.Test
    void reusedConnectionClosedUnanswered_aGetIsSentAgainOnANewConnection() throws Exception {
        // the second request arrives on the kept-alive connection and the server closes it unanswered (as a server's
        // idle timeout does when it races a request): sent again, on a new connection, it is answered
        try (ScriptedServer server = new ScriptedServer(i -> i == 1 ? CLOSE : ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
             Transport t = transport(AttackSettings.Client.NETTY, 5 * S)) {
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
            assertThat(server.requests).hasSize(3);
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(t.retriedRequests()).isEqualTo(1);
        }
    }

    @org.junit.jupiter.api.Test
    void idleConnectionOpenedAhead_closedUnansweredOnItsFirstRequest_isSentAgain() throws Exception {
        // the connection opened before the attack waited idle (kept for reuse, as Go counts it): the server closing
        // it under its first request is the stale-connection case too
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 ? CLOSE : ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
             Transport t = transport(AttackSettings.Client.NETTY, 5 * S)) {
            Target target = Target.get(server.url("/"));
            t.warmUp(List.of(target));
            long deadline = System.nanoTime() + 10 * S;
            while (server.connections.get() < 1 && System.nanoTime() < deadline) Thread.sleep(5);
            assertThat(send(t, target)).isEqualTo(new Outcome(200, 2, null));
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(t.retriedRequests()).isEqualTo(1);
        }
    }

    @org.junit.jupiter.api.Test
    void reusedConnectionClosedUnanswered_aPostIsAnError_notSentAgain() throws Exception {
        try (ScriptedServer server = new ScriptedServer(i -> i == 1 ? CLOSE : ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
             Transport t = transport(AttackSettings.Client.NETTY, 5 * S)) {
            Target post = new Target("POST", URI.create(server.url("/p")), List.of(), ascii("{}"));
            assertThat(send(t, post)).isEqualTo(new Outcome(200, 0, null));
            Outcome second = send(t, post);
            assertThat(second.status()).isZero();
            assertThat(second.error()).contains("Connection was closed");
            assertThat(server.requests).hasSize(2);
            assertThat(t.retriedRequests()).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void newConnectionClosedUnanswered_isAnError_notSentAgain() throws Exception {
        // a fresh connection that the server closes is the server's refusal, not a stale connection (Go's rule too)
        try (ScriptedServer server = new ScriptedServer(i -> i == 0 ? CLOSE : ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
             Transport t = transport(AttackSettings.Client.NETTY, 5 * S)) {
            Outcome first = send(t, Target.get(server.url("/")));
            assertThat(first.status()).isZero();
            assertThat(first.error()).contains("Connection was closed");
            assertThat(t.retriedRequests()).isZero();
            assertThat(send(t, Target.get(server.url("/")))).isEqualTo(new Outcome(200, 2, null));
        }
    }

    @org.junit.jupiter.api.Test
    void aBurstAgainstATargetThatAcceptsNothing_opensAtMostTheBoundAtOncePerLoop() throws Exception {
        // A listening socket that never accepts, with a backlog of 1: once its queue is full the kernel answers no
        // further handshake, so those connects stay pending and each loop's opening bound is what limits them.
        int loops = Math.max(1, Runtime.getRuntime().availableProcessors());
        int bound = VertxTransport.MAX_CONNECTING_PER_LOOP;
        try (ServerSocket deaf = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Transport t = Transport.create(AttackSettings.of(List.of(Target.get("http://127.0.0.1:1/")),
                     new dev.blocklab.workload.Arrival.Open(new dev.blocklab.load.Pacer.Constant(1), S)).withTimeoutNanos(30 * S))) {
            Target target = Target.get("http://127.0.0.1:" + deaf.getLocalPort() + "/");
            for (int i = 0; i < 3 * bound * loops; i++) sendAsync(t, target);   // three times what may be opened at once
            long deadline = System.nanoTime() + 10 * S;
            while (t.openConnections() < bound * loops && System.nanoTime() < deadline) Thread.sleep(10);
            Thread.sleep(300);   // sweeps every 5 ms: time for more, were the bound not kept
            // the backlog's few established connections, then at most the bound pending on each loop
            assertThat(t.openConnections()).isBetween(bound * loops, bound * loops + 2 + loops);
        }
    }

    @org.junit.jupiter.api.Test
    void replayable_followsGosRule() {
        assertThat(VertxTransport.replayable(Target.get("http://127.0.0.1:1/"))).isTrue();
        for (String m : List.of("HEAD", "OPTIONS", "TRACE"))
            assertThat(VertxTransport.replayable(new Target(m, URI.create("http://127.0.0.1:1/"), List.of(), new byte[0]))).as(m).isTrue();
        for (String m : List.of("POST", "PUT", "PATCH", "DELETE"))
            assertThat(VertxTransport.replayable(new Target(m, URI.create("http://127.0.0.1:1/"), List.of(), new byte[0]))).as(m).isFalse();
        assertThat(VertxTransport.replayable(new Target("POST", URI.create("http://127.0.0.1:1/"),
                List.of(Map.entry("idempotency-key", "k1")), new byte[0]))).isTrue();
    }

    /**
     * A server on 127.0.0.1 that reads each request (headers, then a body of its Content-Length) and writes
     * {@code script.apply(n)} for the n-th request overall (null: no answer, the connection stays open; {@link #CLOSE}:
     * no answer, the connection closed); with
     * {@code closeAfterFirst}, it closes the first connection after its first answer. Bounded: its sockets time
     * out after 10 s and it stops when closed.
     */
    private static final class ScriptedServer implements AutoCloseable {
        final ServerSocket socket;
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger served = new AtomicInteger();
        final List<String> requests = new CopyOnWriteArrayList<>();
        final List<Socket> open = new CopyOnWriteArrayList<>();
        private final IntFunction<byte[]> script;
        private final boolean closeAfterFirst;

        ScriptedServer(IntFunction<byte[]> script) throws IOException { this(script, false); }

        ScriptedServer(IntFunction<byte[]> script, boolean closeAfterFirst) throws IOException {
            this.script = script;
            this.closeAfterFirst = closeAfterFirst;
            this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            socket.setSoTimeout(10_000);
            Thread.ofPlatform().daemon().start(this::accept);
        }

        int port() { return socket.getLocalPort(); }

        String url(String path) { return "http://127.0.0.1:" + port() + path; }

        private void accept() {
            for (int n = 0; n < 20 && !socket.isClosed(); n++) {
                try {
                    Socket s = socket.accept();
                    s.setSoTimeout(10_000);
                    open.add(s);
                    int number = connections.getAndIncrement();
                    Thread.ofPlatform().daemon().start(() -> serve(s, number));
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void serve(Socket s, int connection) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                for (int k = 0; k < 100; k++) {
                    String request = readRequest(in);
                    if (request == null) return;
                    requests.add(request);
                    byte[] answer = script.apply(served.getAndIncrement());
                    if (answer == null) continue;
                    if (answer == CLOSE) return;
                    out.write(answer);
                    out.flush();
                    if (closeAfterFirst && connection == 0) return;
                }
            } catch (SocketTimeoutException e) {
                // a bounded wait ended
            } catch (IOException e) {
                // the client closed
            }
        }

        /** One request's bytes (headers and body), or null at the end of the stream. */
        private static String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0) {
                b.write(c);
                String sofar = b.toString(StandardCharsets.ISO_8859_1);
                if (sofar.endsWith("\r\n\r\n")) {
                    int length = 0;
                    for (String line : sofar.split("\r\n"))
                        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
                            length = Integer.parseInt(line.substring(15).trim());
                    b.write(in.readNBytes(length));
                    return b.toString(StandardCharsets.ISO_8859_1);
                }
            }
            return null;
        }

        @Override public void close() throws IOException {
            socket.close();
            for (Socket s : open) s.close();
        }
    }
}
