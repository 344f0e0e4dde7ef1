package dev.blocklab.experiment;

import dev.blocklab.backend.BackendServer;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.result.Environment;
import dev.blocklab.result.RunResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The frameworks experiments' backends: no server when simulated; over HTTP a warmed-up server that every run calls. */
class FrameworksBackendsTest {
    private static final ExperimentSettings SIMULATED = new ExperimentSettings(false, 100, Progress.NONE, row -> {}, Environment.current());

    @Test
    void startIfHttp_simulated_startsNothing() {
        Workload w = FrameworksUseCase.workload(200_000_000L, new Arrival.Batch(1));
        assertThat(FrameworksBackends.startIfHttp(SIMULATED, w, 100, 1_000, 500)).isNull();
        assertThat(FrameworksBackends.note(SIMULATED)).startsWith("Backend: simulated");
    }

    @Test
    void startIfHttp_http_serverOnLoopbackWarmedUpAndCalledByEveryRun() {
        ExperimentSettings http = SIMULATED.withBackend(ExperimentSettings.CallBackend.HTTP);
        Workload w = FrameworksUseCase.workload(200_000_000L, new Arrival.Batch(3));
        try (BackendServer server = FrameworksBackends.startIfHttp(http, w, 100, 1_000, 500)) {
            assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
            assertThat(server.settings().routes()).isEqualTo(FrameworksUseCase.routes(w));
            // the warm-up: 30 requests' four calls, each through the non-blocking and the blocking client
            assertThat(server.stats().get("requests")).isEqualTo(240L);

            FrameworksUseCase useCase = new FrameworksUseCase(1_000, 500);
            RunSettings rs = RunSettings.DEFAULTS.withTimeScale(100).withRuns(0, 1);
            var driver = FrameworksBackends.driver(server);
            for (String variant : new String[] {"sequential", "reactor"}) {
                RunResult r = driver.run(w, variant, c -> FrameworkVariants.named(variant, 16).create(c.backend(), useCase), rs, Progress.NONE);
                assertThat(r.successRatio()).as(variant).isEqualTo(1.0);
            }
            assertThat(server.stats().get("requests")).as("two runs of three requests, four calls each").isEqualTo(240L + 2 * 3 * 4);
        }
        assertThat(FrameworksBackends.note(http)).startsWith("Backend: HTTP");
    }
}
