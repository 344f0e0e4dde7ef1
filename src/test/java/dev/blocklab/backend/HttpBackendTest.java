package dev.blocklab.backend;

import dev.blocklab.model.Model;
import dev.blocklab.model.ModelContext;
import dev.blocklab.model.Models;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HttpBackendTest {
    private static final long MS = 1_000_000L;
    private static final Step.FailureSpec WONT_WORK = new Step.FailureSpec(IllegalArgumentException.class.getName(), "This won't work!");
    private static BackendServer server;
    private static HttpBackend backend;

    @BeforeAll static void start() {
        List<Route> routes = new ArrayList<>(Routes.profilePage());
        routes.add(Routes.parse("/slow delay=20ms bytes=10", "test"));
        routes.add(Routes.parse("/broken delay=1ms failure-rate=1 failure-status=503", "test"));
        server = BackendServer.start(new BackendSettings("127.0.0.1", 0, routes, 1, 1));
        backend = new HttpBackend(server.uri());
    }

    @AfterAll static void stop() {
        backend.close();
        server.close();
    }

    private static CallInvocation call(String name, long delayNanos, long timeoutNanos, Object value, Step.FailureSpec failure) {
        return new CallInvocation(name, 1, delayNanos, timeoutNanos, failure == null ? value : null, failure);
    }

    @Test void callBlocking_returnsTheValueOverTheWire_afterTheDelay() throws Exception {
        long t0 = System.nanoTime();
        assertThat(backend.callBlocking(call("user", 30 * MS, 0, "Anton", null))).isEqualTo("Anton");
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(30 * MS);
        assertThat(backend.callBlocking(call("posts", 1 * MS, 0, 100L, null))).isEqualTo(100L);
        assertThat(backend.callBlocking(call("name", 0, 0, "a b&c=d", null))).isEqualTo("a b&c=d");
    }

    @Test void callAsync_returnsAtOnce_andCompletesWithTheValueAfterTheDelay() throws Exception {
        long t0 = System.nanoTime();
        CompletableFuture<Object> f = backend.callAsync(call("followers", 1_000 * MS, 0, 2000L, null));
        assertThat(f).isNotDone();   // a second: far more than a busy machine holds the test's thread off a core
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(2000L);
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(1_000 * MS);
    }

    /** A caller that closes its connection before the answer: the answer's failed write is counted in /stats. */
    @Test void server_answerAfterTheCallerClosed_isCountedAsAConnectionError() throws Exception {
        try (BackendServer own = BackendServer.start(new BackendSettings("127.0.0.1", 0,
                List.of(Routes.parse("/slow delay=300ms bytes=10", "test")), 1, 1))) {
            try (java.net.Socket s = new java.net.Socket("127.0.0.1", own.port())) {
                s.getOutputStream().write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                long deadline = System.nanoTime() + 5_000 * MS;
                while (own.pending() == 0 && System.nanoTime() < deadline) Thread.sleep(5);
                s.setSoLinger(true, 0);   // a reset: the caller gave up
            }
            long deadline = System.nanoTime() + 10_000 * MS;
            while ((own.pending() > 0 || (long) own.stats().get("connectionErrors") == 0) && System.nanoTime() < deadline) Thread.sleep(10);
            assertThat(own.stats()).containsEntry("connectionErrors", 1L).containsEntry("pending", 0L);
        }
    }

    @Test void callAsync_afterClose_failsAsACall_notAsAnEventLoopError() {
        HttpBackend closing = new HttpBackend(server.uri());
        closing.close();
        CompletableFuture<Object> f = closing.callAsync(call("user", MS, 0, "Anton", null));
        assertThat(f).isCompletedExceptionally();
        assertThatThrownBy(f::join).hasRootCauseInstanceOf(java.io.IOException.class).hasMessageContaining("the backend client is closed");
    }

    @Test void failures_raiseTheConfiguredException_inBothForms() {
        assertThatThrownBy(() -> backend.callBlocking(call("task4", 5 * MS, 0, null, WONT_WORK)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("This won't work!");
        assertThatThrownBy(() -> backend.callAsync(call("task4", 5 * MS, 0, null, WONT_WORK)).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(IllegalArgumentException.class).hasMessage("This won't work!");
    }

    @Test void timeouts_firstInTheClient_inBothForms() {
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> backend.callBlocking(call("slow", 30_000 * MS, 50 * MS, 1L, null)))
                .isInstanceOf(TimeoutException.class).hasMessageContaining("'slow' timed out");
        assertThatThrownBy(() -> backend.callAsync(call("slow", 30_000 * MS, 50 * MS, 1L, null)).get(60, TimeUnit.SECONDS))
                .cause().isInstanceOf(TimeoutException.class);
        // both gave up long before the 30 s answer (a bound of 2.5 s against a 3 s answer left a loaded machine,
        // which stalls a JVM for seconds, little room)
        assertThat(System.nanoTime() - t0).isLessThan(15_000 * MS);
        assertThat(backend.callsStarted()).isGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sequential", "fixed:3", "cf-blocking:3", "cf-nonblocking:2", "virtual"})
    void models_overHttp_answerTheProfilePage(String model) throws Exception {
        try (Model m = Models.create(model, new ModelContext(backend))) {
            Request r = new Request(7, BuiltInWorkloads.profilePage().graph(), 42, 100);
            assertThat(m.submit(r).get(10, TimeUnit.SECONDS)).isEqualTo("Hello Anton, you have 100 posts and 2000 followers!");
        }
    }

    @Test void routes_answerWithTheirBodyStatusAndFailure_andStatsReportDeliveredBesideConfigured() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> user = client.send(HttpRequest.newBuilder(server.uri().resolve("/user")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(user.body()).isEqualTo("Anton");
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> slow = client.send(HttpRequest.newBuilder(server.uri().resolve("/slow")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(slow.body()).isEqualTo("xxxxxxxxxx");
            }
            HttpResponse<String> broken = client.send(HttpRequest.newBuilder(server.uri().resolve("/broken")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(broken.statusCode()).isEqualTo(503);
            HttpResponse<String> bad = client.send(HttpRequest.newBuilder(server.uri().resolve("/call?delayMicros=-1")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(bad.statusCode()).isEqualTo(400);
            HttpResponse<String> stats = client.send(HttpRequest.newBuilder(server.uri().resolve("/stats")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(stats.body()).contains("\"maxPending\"", "\"configuredMillis\"", "\"deliveredMillis\"", "\"/slow\"").doesNotContain("NaN");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> slow = (Map<String, Object>) ((Map<String, Object>) server.stats().get("paths")).get("/slow");
        assertThat(slow.get("answers")).isEqualTo(5L);
        @SuppressWarnings("unchecked")
        Map<String, Object> delivered = (Map<String, Object>) slow.get("deliveredMillis");
        assertThat((Double) delivered.get("min")).isGreaterThanOrEqualTo(19.9);
        assertThat(((Map<?, ?>) slow.get("configuredMillis")).get("p50")).isEqualTo(20.0);
    }

    @Test void manyPendingAnswers_holdNoThreads() throws Exception {
        List<CompletableFuture<Object>> calls = new ArrayList<>();
        int threadsBefore = Thread.activeCount();
        for (int i = 0; i < 300; i++) calls.add(backend.callAsync(call("c" + i, 400 * MS, 0, (long) i, null)));
        CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        assertThat(calls.get(299).get()).isEqualTo(299L);
        assertThat(server.maxPending()).isGreaterThanOrEqualTo(100);
        assertThat(Thread.activeCount()).isLessThan(threadsBefore + 20);
    }

    @Test void start_portInUse_isOneClearLine() {
        assertThatThrownBy(() -> BackendServer.start(new BackendSettings("127.0.0.1", server.port(), List.of(), 1, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--port " + server.port());
    }

    @Test void constructor_rejectsNonHttpUrls() {
        assertThatThrownBy(() -> new HttpBackend(URI.create("ftp://127.0.0.1:1"))).hasMessageContaining("http://HOST:PORT");
    }
}
