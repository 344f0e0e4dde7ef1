package dev.blocklab.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Raw HTTP/1.1 probes: what a hostile or broken client sends, and what the server must answer. */
class ProtocolTest {
    private static BlocklabServer server;

    @BeforeAll static void start() { server = BlocklabServer.start(BlocklabServerTest.settings("threads:2")); }

    @AfterAll static void stop() { server.close(); }

    /** Sends raw bytes and reads until the server closes or 2 s of silence. */
    private static String exchange(String raw) throws IOException {
        try (Socket s = new Socket(server.uri().getHost(), server.port())) {
            s.setSoTimeout(2_000);
            s.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) out.write(buf, 0, n);
            } catch (SocketTimeoutException silence) {
                // kept open: what came so far
            }
            return out.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test void contentLengthAndTransferEncoding_is400_andThePipelinedRequestIsNotRun() throws IOException {
        String answer = exchange("GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "0\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("both Content-Length and Transfer-Encoding")
                .doesNotContain("blocklab_requests_total");
    }

    @Test void invalidChunkSize_is400_notAClosedConnectionWithoutStatus() throws IOException {
        for (String method : List.of("GET", "POST")) {
            String answer = exchange(method + " /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n");
            assertThat(answer).as(method).startsWith("HTTP/1.1 400").contains("chunked");
        }
        assertThat(exchange("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).as("others unaffected")
                .startsWith("HTTP/1.1 200");
    }

    @Test void http11WithoutHost_is400() throws IOException {
        assertThat(exchange("GET /health HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 400").contains("without Host");
    }

    @Test void postPutDelete_onGetEndpoints_are405_andRunNothing() throws IOException {
        for (String method : List.of("POST", "PUT", "DELETE")) {
            String answer = exchange(method + " /sync-blocking HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            assertThat(answer).as(method).startsWith("HTTP/1.1 405").containsIgnoringCase("allow: GET, HEAD");
        }
        assertThat(server.metricsText()).doesNotContain("endpoint=\"/sync-blocking\"");
    }

    @Test void forkJoinBeyondItsMaximum_is400_naming_theLimit() throws IOException {
        String answer = exchange("GET /run/hundred-calls/forkjoin:40000 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 400").contains("at most 32767").doesNotContain("Exception");
    }

    @Test void connections_areCounted_beforeTheySendARequest() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) idle.add(new Socket(server.uri().getHost(), server.port()));
            long counted = 0;
            for (int attempt = 0; attempt < 500 && counted < 20; attempt++) {   // up to 10 s
                Thread.sleep(20);
                counted = gauge("blocklab_connections");
            }
            assertThat(counted).as("idle connections that sent nothing").isGreaterThanOrEqualTo(20);
        } finally {
            for (Socket s : idle) s.close();
        }
    }

    @Test void clientThatDisconnects_cancelsItsRequest_insteadOfHoldingAThreadToTheEnd() throws Exception {
        // /sync-blocking's calls answer only when the test says (never, here): the request can end only by its
        // cancellation, whatever the machine's speed (with a 1 s call, a loaded machine could let it run out first);
        // the client leaves once the request holds the thread
        var never = new java.util.concurrent.CompletableFuture<Void>();
        try (BlocklabServer slow = BlocklabServer.start(BlocklabServerTest.settings("threads:1"), BlocklabServerTest.held(never), List.of())) {
            try (Socket s = new Socket(slow.uri().getHost(), slow.port())) {
                s.getOutputStream().write("GET /sync-blocking HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                for (int i = 0; i < 500 && !slow.metricsText().contains("blocklab_handlers_running 1\n"); i++) Thread.sleep(20);
            }
            String cancelled = "blocklab_requests_total{endpoint=\"/sync-blocking\",status=\"503\"} 1";
            for (int i = 0; i < 500 && !slow.metricsText().contains(cancelled); i++) Thread.sleep(20);
            assertThat(slow.metricsText()).as("answered 'request cancelled', not held to the end")
                    .contains(cancelled).doesNotContain("endpoint=\"/sync-blocking\",status=\"200\"");
        }
    }

    private static long gauge(String name) {
        return BlocklabServerTest.gauge(server.metricsText(), name);
    }
}
