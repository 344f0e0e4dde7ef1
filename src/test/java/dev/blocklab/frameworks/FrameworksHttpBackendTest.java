package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.backend.BackendServer;
import dev.blocklab.backend.BackendSettings;
import dev.blocklab.backend.HttpBackend;
import dev.blocklab.backend.Route;
import dev.blocklab.backend.SimulatedBackend;
import dev.blocklab.model.Model;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The variants over a real HTTP backend on 127.0.0.1: the same answers as over the simulated one, four calls a request. */
class FrameworksHttpBackendTest {
    private static final long SCALE = 100;
    private static final long SEED = 7;
    private static final int REQUESTS = 4;
    private static final Workload WORKLOAD = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(REQUESTS));

    private static List<String> answers(String variant, Backend backend) throws Exception {
        try (Model model = FrameworkVariants.named(variant, 16).create(backend, new FrameworksUseCase(1_000, 500))) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (long id = 0; id < REQUESTS; id++) futures.add(model.submit(new Request(id, WORKLOAD.graph(), SEED, SCALE)));
            List<String> answers = new ArrayList<>();
            for (CompletableFuture<Object> f : futures) answers.add((String) f.get(20, TimeUnit.SECONDS));
            return answers;
        }
    }

    @Test
    void routes_serveEachCallsJsonAfterItsDelay() {
        List<Route> routes = FrameworksUseCase.routes(FrameworksUseCase.workload(400_000_000L, new Arrival.Batch(1)));
        assertThat(routes).extracting(Route::path).containsExactly("/posts", "/comments", "/albums", "/photos");
        assertThat(routes.get(0).delay()).isEqualTo(new dev.blocklab.workload.Latency.Fixed(400_000_000L));
        assertThat(routes.get(1).delay()).isEqualTo(new dev.blocklab.workload.Latency.Fixed(FrameworksUseCase.FAST_DELAY_NANOS));
        assertThat(routes.get(3).body()).isEqualTo(PlaceholderData.json("photos"));
    }

    /** What lets the capacity search serve every rate from one server: the routes follow the delays, not the arrival. */
    @Test
    void routes_dependOnTheDelaysNotTheArrival() {
        List<Route> batch = FrameworksUseCase.routes(FrameworksUseCase.workload(200_000_000L, new Arrival.Batch(1)));
        assertThat(FrameworksUseCase.routes(FrameworksUseCase.workload(200_000_000L, new Arrival.Open(640, 3_000_000_000L)))).isEqualTo(batch);
        assertThat(FrameworksUseCase.routes(FrameworksUseCase.workload(200_000_000L, new Arrival.Closed(50, 1_000_000_000L)))).isEqualTo(batch);
        assertThat(FrameworksUseCase.routes(FrameworksUseCase.workload(400_000_000L, new Arrival.Batch(1)))).isNotEqualTo(batch);
    }

    @Test
    void submit_overHttpAnswersAsOverTheSimulatedBackendWithFourCallsPerRequest() throws Exception {
        List<String> reference;
        try (SimulatedBackend simulated = new SimulatedBackend()) {
            reference = answers("sequential", simulated);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        for (String variant : List.of("sequential", "reactor", "vertx-event-loop")) {
            try (BackendServer server = BackendServer.start(new BackendSettings(BackendSettings.DEFAULT_HOST, 0,
                    FrameworksUseCase.routes(WORKLOAD), SCALE, cores))) {
                List<String> overHttp;
                try (HttpBackend http = HttpBackend.routed(server.uri())) {
                    overHttp = answers(variant, http);
                    assertThat(http.callsStarted()).as(variant + " calls made").isEqualTo(4L * REQUESTS);
                }
                assertThat(overHttp).as(variant + " over HTTP, byte for byte").isEqualTo(reference);
                assertThat(server.stats().get("requests")).as(variant + ": requests the server saw").isEqualTo(4L * REQUESTS);
                @SuppressWarnings("unchecked")
                Map<String, Map<String, Object>> paths = (Map<String, Map<String, Object>>) server.stats().get("paths");
                for (String call : FrameworksUseCase.CALLS)
                    assertThat(paths.get("/" + call).get("answers")).as(variant + " /" + call).isEqualTo((long) REQUESTS);
            }
        }
    }
}
