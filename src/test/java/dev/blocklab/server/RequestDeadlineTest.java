package dev.blocklab.server;

import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.CpuWork;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code serve --request-timeout}: the deadline answers on time even when every handler thread is busy. */
class RequestDeadlineTest {
    private static final long MS = 1_000_000L;

    @Test
    void deadline_saturatedProfile_answers504WithTheReasonLongBeforeTheWork() throws Exception {
        // One handler thread. The first request holds it with CPU work (hashing does not heed interrupts) sized
        // here to take about 3 s; five more arrive once it runs and queue behind it. Every deadline (300 ms)
        // passes while the first still holds the thread, so the answers cannot race with a freed thread.
        int steps = hashStepsFor(3_000 * MS);
        List<Step> chain = new ArrayList<>();
        for (int i = 0; i < steps; i++)
            chain.add(new Step.Cpu("hash" + i, i == 0 ? List.of() : List.of("hash" + (i - 1)), Step.CpuKind.HASH, Step.Cpu.MAX_SIZE));
        Workload busy = new Workload("busy", "about 3 s of hashing", new Graph(0L, chain), new Arrival.Batch(1));
        ServerSettings settings = ServerSettings.of(0, ServerProfile.parse("threads:1")).withLog(line -> {})
                .withAdmission(Admission.FIXED).withRequestTimeoutNanos(300 * MS);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (BlocklabServer server = BlocklabServer.start(settings, null, List.of(busy))) {
            URI uri = server.uri().resolve("/run/busy/sequential");
            byte[] request = ("GET " + uri.getPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            List<Socket> sockets = new ArrayList<>();
            sockets.add(send(uri, request));
            // the others only once the first holds the thread: connections are spread over the event loops, so a
            // later one may be read before it (bounded wait; the first's hashing takes about 3 s)
            long running = System.nanoTime() + 10_000 * MS;
            while (!server.metricsText().contains("blocklab_handlers_running 1\n") && System.nanoTime() < running) Thread.sleep(10);
            for (int i = 0; i < 5; i++) sockets.add(send(uri, request));
            List<String> bodies = new ArrayList<>();
            for (Socket socket : sockets) {
                try (socket) {
                    String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    assertThat(response).as(response).startsWith("HTTP/1.1 504");
                    bodies.add(response.substring(response.indexOf("\r\n\r\n") + 4));
                }
            }
            // every answer before the first request's work ended, let alone the six requests' (ordered, not timed:
            // a bound of 4 s from the first send once failed at 4.4 s on a loaded machine, where the hashing, sized
            // by this machine's own speed, stretches with the load as the wait for a thread would)
            assertThat(BlocklabServerTest.gauge(server.metricsText(), "blocklab_handlers_running"))
                    .as("the first's hashing still holds the thread").isEqualTo(1);
            assertThat(bodies).allMatch(b -> b.startsWith("deadline of 300ms passed (--request-timeout)"));
            assertThat(bodies.subList(1, 6)).as("queued behind the busy thread")
                    .allMatch(b -> b.contains("the request was still waiting for a handler thread"));
            // the deadline's 504s are counted under the endpoint asked for, not under a label of their own
            String metrics = client.send(HttpRequest.newBuilder(server.uri().resolve("/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics).contains("blocklab_requests_total{endpoint=\"/run\",status=\"504\"} 6")
                    .contains("blocklab_deadline_exceeded_total 6").doesNotContain("endpoint=\"deadline\"");
            // once the hashing ends, the cancelled queued requests never run: the thread is free for a new request
            long deadline = System.nanoTime() + 60_000 * MS;
            while (BlocklabServerTest.gauge(server.metricsText(), "blocklab_handlers_running") > 0 && System.nanoTime() < deadline)
                Thread.sleep(20);
            assertThat(server.metricsText()).contains("blocklab_handlers_running 0\n", "blocklab_requests_in_flight 0\n");
            assertThat(client.send(HttpRequest.newBuilder(server.uri().resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void metricsEndpoint_labelsAsTheAnswerDoes() {
        assertThat(BlocklabServer.metricsEndpoint("/sync-blocking")).isEqualTo("/sync-blocking");
        assertThat(BlocklabServer.metricsEndpoint("/run/busy/sequential")).isEqualTo("/run");
        assertThat(BlocklabServer.metricsEndpoint("/health")).isEqualTo("/health");
        assertThat(BlocklabServer.metricsEndpoint("/nothing")).isEqualTo("other");
    }

    private static Socket send(URI uri, byte[] request) throws java.io.IOException {
        Socket socket = new Socket(uri.getHost(), uri.getPort());
        socket.setSoTimeout(20_000);
        socket.getOutputStream().write(request);
        return socket;
    }

    /** How many chained 16 MiB hashes take at least {@code nanos} on this machine now (the fastest of three). */
    private static int hashStepsFor(long nanos) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long t = System.nanoTime();
            CpuWork.perform(Step.CpuKind.HASH, Step.Cpu.MAX_SIZE);
            best = Math.min(best, System.nanoTime() - t);
        }
        return (int) Math.max(1, Math.min(1_000, (nanos + best - 1) / best));
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
