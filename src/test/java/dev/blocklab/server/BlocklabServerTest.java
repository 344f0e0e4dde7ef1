package dev.blocklab.server;

import dev.blocklab.backend.BackendServer;
import dev.blocklab.backend.BackendSettings;
import dev.blocklab.backend.Routes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

class BlocklabServerTest {
    static final String HELLO = "Hello Anton, you have 100 posts and 2000 followers!";
    static final long TIME_SCALE = 100;
    private static HttpClient client;

    @BeforeAll static void client() {
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll static void closeClient() { client.close(); }

    /**
     * A fixed queue, not the default CoDel: these tests are about answers, not admission, and CoDel rightly sheds a
     * lone request on a machine loaded enough that handing it to a thread takes over twice its 20 ms target (one
     * was answered 503 'queueing delay over target' under CPU hogs).
     */
    static ServerSettings settings(String profile) {
        return ServerSettings.of(0, ServerProfile.parse(profile)).withTimeScale(TIME_SCALE).withLog(line -> {})
                .withAdmission(Admission.FIXED);
    }

    static HttpResponse<String> get(URI base, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"play-2.5", "threads:4", "virtual", "event-loop"})
    void talkEndpoints_answerTheGreeting_underEveryProfile(String profile) throws Exception {
        try (BlocklabServer server = BlocklabServer.start(settings(profile))) {
            for (String path : List.of("/sync-blocking", "/async-blocking", "/async-non-blocking")) {
                HttpResponse<String> r = get(server.uri(), path);
                assertThat(r.statusCode()).as(path).isEqualTo(200);
                assertThat(r.body()).as(path).isEqualTo(HELLO);
                assertThat(r.headers().firstValue("content-type")).get().asString().startsWith("text/plain");
            }
            assertThat(server.metricsText()).contains("blocklab_requests_total{endpoint=\"/sync-blocking\",status=\"200\"} 1");
        }
    }

    /**
     * Closing the server while handler threads are inside blocking calls and more requests queue for them: their
     * answers (or failures, once interrupted) find the event loops gone; they are dropped, not thrown at the thread.
     */
    @Test void close_withBlockingCallsInFlight_throwsNothingAtTheHandlerThreads() throws Exception {
        List<Throwable> rejected = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (e instanceof java.util.concurrent.RejectedExecutionException) rejected.add(e);
        });
        // over an HTTP backend that never answers, at time scale 1 (a call times out after 10 s): closing the server
        // closes its backend client, which fails the calls in flight on the handler threads. Never answered, so no
        // request can end before the close (with the talk's 1 s of calls, a loaded machine answered one 200 first)
        try (BlackHole backend = new BlackHole()) {
            ServerSettings real = ServerSettings.of(0, ServerProfile.parse("play-2.5")).withTimeScale(1).withLog(line -> {})
                    .withBackend(backend.uri());
            BlocklabServer server = BlocklabServer.start(real);
            // more requests than play-2.5's 8 handler threads: the queued ones run while the server closes
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> pending = new java.util.ArrayList<>();
            for (int i = 0; i < 12; i++)
                pending.add(client.sendAsync(HttpRequest.newBuilder(server.uri().resolve("/sync-blocking"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!server.metricsText().contains("blocklab_requests_in_flight 12") && System.nanoTime() < deadline)
                Thread.sleep(10);
            server.close();
            // the stop cancels the queued and running requests first: each is answered 503 if its event loop still
            // runs then, or its connection closes with the server; none is answered as if its calls had finished
            for (var p : pending) {
                Integer status = p.handle((r, e) -> e == null ? r.statusCode() : null).get(10, java.util.concurrent.TimeUnit.SECONDS);
                if (status != null) assertThat(status).isEqualTo(503);
            }
            Thread.sleep(1_500);   // time for a failure that reached a closed event loop to be thrown at its thread
            assertThat(rejected).isEmpty();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test void syncBlocking_takesTheSumOfTheCalls_nonBlockingTheLongest() throws Exception {
        try (BlocklabServer server = BlocklabServer.start(settings("threads:4"))) {
            get(server.uri(), "/sync-blocking");   // warm up
            long t0 = System.nanoTime();
            get(server.uri(), "/sync-blocking");
            long syncNanos = System.nanoTime() - t0;
            t0 = System.nanoTime();
            get(server.uri(), "/async-non-blocking");
            long asyncNanos = System.nanoTime() - t0;
            assertThat(syncNanos).isGreaterThanOrEqualTo(1_000_000_000L / TIME_SCALE);   // 200 + 500 + 300 ms, scaled
            assertThat(asyncNanos).isGreaterThanOrEqualTo(500_000_000L / TIME_SCALE);   // the longest call, scaled
        }
    }

    @Test void run_anyWorkloadUnderAnyModel_andClearErrors() throws Exception {
        try (BlocklabServer server = BlocklabServer.start(settings("virtual"))) {
            assertThat(get(server.uri(), "/run/profile-page/cf-nonblocking:2").body()).isEqualTo(HELLO);
            assertThat(get(server.uri(), "/run/task-graph/fixed:4").body()).isEqualTo("13");
            HttpResponse<String> failing = get(server.uri(), "/run/task-graph-failure/virtual");
            assertThat(failing.statusCode()).isEqualTo(500);
            assertThat(failing.body()).as("no exception class in an error body").isEqualTo("the request failed");
            assertThat(get(server.uri(), "/run/nope/virtual").statusCode()).isEqualTo(404);
            assertThat(get(server.uri(), "/run/profile-pag/virtual").body()).startsWith("unknown workload 'profile-pag'; did you mean 'profile-page'? (served: ");
            assertThat(get(server.uri(), "/run/mixed/fixed:x").body()).contains("not a whole number");
            assertThat(get(server.uri(), "/nowhere").statusCode()).isEqualTo(404);
            assertThat(get(server.uri(), "/health").body()).isEqualTo("ok");
        }
    }

    @Test void metrics_prometheusText_withThreadsQueuesAndCounters() throws Exception {
        assertThat(ServerSettings.of(0, ServerProfile.parse("play-2.5")).admission()).as("the default admission").isEqualTo(Admission.CODEL);
        try (BlocklabServer server = BlocklabServer.start(settings("play-2.5"))) {
            get(server.uri(), "/async-non-blocking");
            HttpResponse<String> r = get(server.uri(), "/metrics");
            assertThat(r.headers().firstValue("content-type")).get().asString().contains("version=0.0.4");
            assertThat(r.body()).contains("# TYPE blocklab_requests_total counter",
                    "blocklab_requests_total{endpoint=\"/async-non-blocking\",status=\"200\"} 1",
                    "blocklab_requests_in_flight 0", "blocklab_requests_waiting 0", "blocklab_shed_total 0",
                    "blocklab_pool_threads{pool=\"play-2.5\"}", "blocklab_jvm_threads{kind=\"live\"}",
                    "blocklab_server_info{profile=\"play-2.5\",admission=\"fixed\"} 1");
            for (String line : r.body().split("\n"))
                assertThat(line).matches("# (HELP|TYPE) .*|[a-z_]+(\\{[^}]*})? -?[0-9.]+");
        }
    }

    @Test void eventLoop_blockingEndpoint_isCountedAndLogged() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        try (BlocklabServer server = BlocklabServer.start(settings("event-loop").withLog(log::add))) {
            get(server.uri(), "/async-non-blocking");
            assertThat(server.eventLoopBlockingCount()).isZero();
            get(server.uri(), "/sync-blocking");
            get(server.uri(), "/sync-blocking");
            assertThat(server.eventLoopBlockingCount()).isEqualTo(2);
            assertThat(log).hasSize(1);
            assertThat(log.getFirst()).contains("/sync-blocking blocks an event loop");
            assertThat(server.metricsText()).contains("blocklab_event_loop_blocking_requests_total{endpoint=\"/sync-blocking\"} 2");
        }
    }

    @Test void eventLoop_connectionsAreSpreadOverTheLoops_soBlockingHandlersOnDifferentConnectionsOverlap() throws Exception {
        // /sync-blocking holds its event loop for its calls' sum, 1 s here. Four connections at once: on one loop
        // their handlers would run one after another, never two at a time; spread over the loops (2 x cores, at
        // least 2) they overlap. A server listening once from the main thread had every connection on one loop.
        // Counted, not timed: the most handlers running at once, seen from this thread while the four are served.
        try (BlocklabServer server = BlocklabServer.start(settings("event-loop").withTimeScale(1));
             HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            List<java.util.concurrent.CompletableFuture<HttpResponse<String>>> answers = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++)   // concurrent HTTP/1.1 requests: a connection each
                answers.add(fresh.sendAsync(HttpRequest.newBuilder(server.uri().resolve("/sync-blocking"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()));
            var all = java.util.concurrent.CompletableFuture.allOf(answers.toArray(java.util.concurrent.CompletableFuture[]::new));
            long mostAtOnce = 0;
            while (!all.isDone()) {
                mostAtOnce = Math.max(mostAtOnce, gauge(server.metricsText(), "blocklab_handlers_running"));
                Thread.sleep(5);
            }
            for (var answer : answers) assertThat(answer.get().body()).isEqualTo(HELLO);
            assertThat(mostAtOnce).as("blocking handlers running at once on different connections").isGreaterThanOrEqualTo(2);
            assertThat(server.eventLoopBlockingCount()).isEqualTo(4);
        }
    }

    /** The value of an unlabelled gauge or counter in the Prometheus text. */
    static long gauge(String metrics, String name) {
        for (String line : metrics.split("\n"))
            if (line.startsWith(name + " ")) return Long.parseLong(line.substring(name.length() + 1).trim());
        throw new AssertionError(name + " not in /metrics");
    }

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "event-loop"})
    void queue_boundsRequestsInFlight_whenEveryRequestGetsAThreadAtOnce(String profile) throws Exception {
        // the first request's calls wait for the test's word, not for a delay (its 500 ms once ran out on a loaded
        // machine before the second request arrived): it is in flight, beyond doubt, when the second comes
        java.util.concurrent.CompletableFuture<Void> answer = new java.util.concurrent.CompletableFuture<>();
        try (BlocklabServer server = BlocklabServer.start(settings(profile).withQueue(1), held(answer), List.of())) {
            var first = client.sendAsync(HttpRequest.newBuilder(server.uri().resolve("/async-non-blocking")).build(),
                    HttpResponse.BodyHandlers.ofString());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!server.metricsText().contains("blocklab_requests_in_flight 1") && System.nanoTime() < deadline)
                Thread.sleep(5);
            HttpResponse<String> second = get(server.uri(), "/async-non-blocking");
            assertThat(second.statusCode()).isEqualTo(503);
            assertThat(second.body()).contains("requests in flight full (1)");
            assertThat(first).as("held until the test lets its calls answer").isNotDone();
            answer.complete(null);
            assertThat(first.get(10, java.util.concurrent.TimeUnit.SECONDS).body()).isEqualTo(HELLO);
            assertThat(get(server.uri(), "/async-non-blocking").statusCode()).isEqualTo(200);
            assertThat(server.shedCount()).isEqualTo(1);
        }
    }

    /** The simulated backend, whose calls answer only once {@code answer} is complete (a blocking one waits 30 s at most). */
    static dev.blocklab.backend.Backend held(java.util.concurrent.CompletableFuture<Void> answer) {
        dev.blocklab.backend.SimulatedBackend simulated = new dev.blocklab.backend.SimulatedBackend();
        return new dev.blocklab.backend.Backend() {
            @Override public String name() { return "held"; }
            @Override public Object callBlocking(dev.blocklab.workload.CallInvocation call) throws Exception {
                answer.get(30, java.util.concurrent.TimeUnit.SECONDS);
                return simulated.callBlocking(call);
            }
            @Override public java.util.concurrent.CompletableFuture<Object> callAsync(dev.blocklab.workload.CallInvocation call) {
                return answer.thenCompose(released -> simulated.callAsync(call));
            }
            @Override public long callsStarted() { return simulated.callsStarted(); }
            @Override public void close() { simulated.close(); }
        };
    }

    @Test void malformedHttp_gets400_andTheServerKeepsServing() throws Exception {
        try (BlocklabServer server = BlocklabServer.start(settings("threads:2"))) {
            for (String garbage : List.of("GARBAGE\r\n\r\n", "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")) {
                try (Socket s = new Socket("127.0.0.1", server.port())) {
                    s.setSoTimeout(5_000);
                    OutputStream out = s.getOutputStream();
                    out.write(garbage.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    InputStream in = s.getInputStream();
                    String status = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
                    assertThat(status).as(garbage).endsWith(" 400");
                }
            }
            assertThat(get(server.uri(), "/sync-blocking").body()).isEqualTo(HELLO);
            assertThat(server.metricsText()).contains("blocklab_malformed_requests_total 2");
        }
    }

    /**
     * A client that closes its connection before its answer (a load generator's time-out): the answer written after
     * (503: the server cancels the request when it sees the connection closed) is counted as a connection error, and Vert.x logs nothing (without
     * a handler it logged each as SEVERE).
     */
    @Test void clientGoneBeforeItsAnswer_isCountedNotLogged() throws Exception {
        // one call of 60 s (an interruptible sleep): the request can only end by the server cancelling it once it
        // sees the connection closed (answered 503 to the closed connection), whatever the machine's load
        var minute = new dev.blocklab.workload.Workload("minute", "one call of a minute", new dev.blocklab.workload.Graph(0L,
                List.of(new dev.blocklab.workload.Step.Call("only", List.of(), new dev.blocklab.workload.Latency.Fixed(60_000_000_000L),
                        new dev.blocklab.workload.Value.Constant("ok"), 0, null, 0))), new dev.blocklab.workload.Arrival.Batch(1));
        try (dev.blocklab.LogCapture vertxLog = new dev.blocklab.LogCapture("io.vertx.core.net.impl.ConnectionBase");
             BlocklabServer server = BlocklabServer.start(ServerSettings.of(0, ServerProfile.parse("threads:2")).withTimeScale(1)
                .withLog(line -> {}), null, List.of(minute))) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.getOutputStream().write("GET /run/minute/fixed:1 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!server.metricsText().contains("blocklab_requests_in_flight 1") && System.nanoTime() < deadline) Thread.sleep(5);
                s.setSoLinger(true, 0);   // a reset, as a client abandoning the request
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            // the write's failure follows the answer on the loop
            while (!server.metricsText().contains("blocklab_connection_errors_total 1") && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(server.metricsText()).contains("blocklab_connection_errors_total 1");
            assertThat(server.metricsText()).contains("blocklab_requests_total{endpoint=\"/run\",status=\"503\"} 1");
            assertThat(vertxLog.records()).isEmpty();
        }
    }

    @Test void httpBackend_servesTheSameGreeting_overRealSockets() throws Exception {
        BackendSettings backendSettings = new BackendSettings("127.0.0.1", 0, Routes.profilePage(), TIME_SCALE, 1);
        // the HTTP client's default call timeout (10 s), not the server's scaled one (1 s at /100): the first
        // non-blocking call sets up the Vert.x client, which took over 1 s on a loaded machine (answered 504)
        try (BackendServer backend = BackendServer.start(backendSettings);
             BlocklabServer server = BlocklabServer.start(settings("threads:4"), new dev.blocklab.backend.HttpBackend(backend.uri()),
                     List.of())) {
            for (String path : List.of("/sync-blocking", "/async-blocking", "/async-non-blocking", "/run/profile-page/virtual"))
                assertThat(get(server.uri(), path).body()).as(path).isEqualTo(HELLO);
            assertThat(backend.stats().toString()).contains("answers=12");
        }
    }
}
