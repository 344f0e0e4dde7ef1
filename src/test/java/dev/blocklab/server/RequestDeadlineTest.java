package dev.blocklab.server;

import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code serve --request-timeout}: the deadline answers on time even when every handler thread is busy. */
class RequestDeadlineTest {
    private static final long MS = 1_000_000L;

    @Test
    void deadline_saturatedProfile_answers504WithTheReasonLongBeforeTheWork() throws Exception {
        // one handler thread, each request holding it 5 s: six requests would need 30 s; the deadline is 300 ms
        Workload slow = new Workload("slow", "one 5 s call", Graph.singleCall(Step.Call.fixed("wait", 5_000 * MS, 1L)),
                new Arrival.Batch(1));
        ServerSettings settings = ServerSettings.of(0, ServerProfile.parse("threads:1")).withLog(line -> {})
                .withAdmission(Admission.FIXED).withRequestTimeoutNanos(300 * MS);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (BlocklabServer server = BlocklabServer.start(settings, null, List.of(slow))) {
            URI uri = server.uri().resolve("/run/slow/sequential");
            // the six connections are open before any request is written, so the requests arrive together and their
            // deadlines pass together, while one of them holds the only thread (a client that connects as it sends
            // spreads the arrivals, and each request then finds the thread freed by the previous one's deadline)
            List<java.net.Socket> sockets = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort());
                socket.setSoTimeout(20_000);
                sockets.add(socket);
            }
            long t0 = System.nanoTime();
            byte[] request = ("GET " + uri.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            for (java.net.Socket socket : sockets) socket.getOutputStream().write(request);
            List<String> bodies = new ArrayList<>();
            for (java.net.Socket socket : sockets) {
                try (socket) {
                    String response = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                    assertThat(response).as(response).startsWith("HTTP/1.1 504");
                    bodies.add(response.substring(response.indexOf("\r\n\r\n") + 4));
                }
            }
            long elapsedNanos = System.nanoTime() - t0;
            // every answer long before the first request's 5 s call could end (generous for a busy machine)
            assertThat(elapsedNanos).isLessThan(4_000 * MS);
            // the running request's call is capped at the deadline too, so its own 504 may come first
            assertThat(bodies).allMatch(b -> b.startsWith("deadline of 300ms passed (--request-timeout)")
                    || b.equals("a downstream call timed out"));
            assertThat(bodies).anyMatch(b -> b.contains("still waiting for a handler thread"));
            // the interrupted handler is free again: a quick request after the deadlines is served
            assertThat(client.send(HttpRequest.newBuilder(server.uri().resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void capTimeouts_callsWaitAtMostTheDeadline() {
        Graph g = new Graph(0L, List.of(Step.Call.fixed("slow", 5_000 * MS, 1L),
                new Step.Call("quick", List.of(), new dev.blocklab.workload.Latency.Fixed(MS), new dev.blocklab.workload.Value.Constant(2L),
                        0, null, 100 * MS)));
        Graph capped = WorkloadRunner.capTimeouts(g, 300 * MS);
        assertThat(capped.steps()).extracting(s -> ((Step.Call) s).timeoutNanos()).containsExactly(300 * MS, 100 * MS);
    }
}
