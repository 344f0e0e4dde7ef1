package dev.blocklab.server;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The talk's endpoints on Pekko HTTP: the same answers as on the emulation, each style taking its own time. */
class PekkoHttpServerTest {
    private static final String GREETING = "Hello Anton, you have 100 posts and 2000 followers!";

    @Test
    void endpoints_answerTheGreeting_inTheTimeTheirStyleTakes() throws Exception {
        // delays / 10: sync-blocking makes the three calls in a row (100 ms), async-non-blocking waits for the longest (50 ms)
        try (PekkoHttpServer server = PekkoHttpServer.start("127.0.0.1", 0, null, 42, 10);
             HttpClient client = HttpClient.newHttpClient()) {
            assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
            assertThat(server.dispatcherParallelism()).isBetween(8, 64);
            for (String endpoint : List.of("/sync-blocking", "/async-blocking", "/async-non-blocking")) {
                for (int i = 0; i < 2; i++) {   // the route is built per request: the second call waits its calls again
                    long t0 = System.nanoTime();
                    HttpResponse<String> r = get(client, server.uri().resolve(endpoint));
                    double millis = (System.nanoTime() - t0) / 1e6;
                    assertThat(r.statusCode()).as(endpoint).isEqualTo(200);
                    assertThat(r.body()).as(endpoint).isEqualTo(GREETING);
                    assertThat(r.headers().firstValue("content-type")).get().asString().startsWith("text/plain");
                    assertThat(millis).as(endpoint).isGreaterThanOrEqualTo(endpoint.equals("/sync-blocking") ? 99 : 49);
                }
            }
            assertThat(get(client, server.uri().resolve("/nowhere")).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void syncBlocking_holdsTheDefaultDispatcher_soItServesAtMostItsThreadsAtOnce() throws Exception {
        // 16 concurrent sync-blocking requests of 100 ms on a dispatcher of 8 threads: at least two rounds
        try (PekkoHttpServer server = PekkoHttpServer.start("127.0.0.1", 0, null, 42, 10);
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            int threads = server.dispatcherParallelism();
            get(client, server.uri().resolve("/health"));
            long t0 = System.nanoTime();
            List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < 2 * threads; i++)
                sent.add(client.sendAsync(HttpRequest.newBuilder(server.uri().resolve("/sync-blocking")).timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            for (var f : sent) assertThat(f.get().body()).isEqualTo(GREETING);
            assertThat((System.nanoTime() - t0) / 1e6).isGreaterThanOrEqualTo(2 * 99);
        }
    }

    private static HttpResponse<String> get(HttpClient client, URI uri) throws Exception {
        return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
