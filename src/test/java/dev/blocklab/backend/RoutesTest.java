package dev.blocklab.backend;

import dev.blocklab.workload.Latency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoutesTest {

    @Test void parse_everyDelayForm_andDefaults() {
        Route fixed = Routes.parse("/user delay=200ms body=Anton", "--route");
        assertThat(fixed).isEqualTo(new Route("/user", new Latency.Fixed(200_000_000L), 200, 0, 500, "Anton", 0));
        assertThat(Routes.parse("/a delay=uniform(10ms,50ms)", "x").delay()).isEqualTo(new Latency.Uniform(10_000_000L, 50_000_000L));
        Route logNormal = Routes.parse("/b delay=lognormal(20ms,300ms) status=201 failure-rate=0.25 failure-status=503 bytes=64", "x");
        assertThat(logNormal.delay()).isEqualTo(new Latency.LogNormal(20_000_000L, 300_000_000L));
        assertThat(logNormal.status()).isEqualTo(201);
        assertThat(logNormal.failureRate()).isEqualTo(0.25);
        assertThat(logNormal.failureStatus()).isEqualTo(503);
        assertThat(logNormal.bodyBytes()).isEqualTo(64);
        assertThat(Routes.parse(logNormal.describe(), "x")).isEqualTo(logNormal);
    }

    @Test void parse_badInput_namesWhereAndWhat() {
        assertThatThrownBy(() -> Routes.parse("/a delay=soon", "--route")).hasMessageStartingWith("--route: '/a delay=soon'")
                .hasMessageContaining("not a duration");
        assertThatThrownBy(() -> Routes.parse("/a colour=red", "--route")).hasMessageContaining("unknown key 'colour'");
        assertThatThrownBy(() -> Routes.parse("/a failure-rate=2", "--route")).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> Routes.parse("/a status=abc", "--route")).hasMessage("--route: '/a status=abc': status 'abc' is not a whole number");
        assertThatThrownBy(() -> Routes.parse("/a bytes=99999999999", "--route")).hasMessageEndingWith("bytes '99999999999' is out of range");
        assertThatThrownBy(() -> Routes.parse("/a failure-rate=often", "--route")).hasMessageEndingWith("failure-rate 'often' is not a number");
        assertThatThrownBy(() -> Routes.parse("/o body=hi bytes=5", "--route")).hasMessageContaining("body and bytes are either/or");
        assertThatThrownBy(() -> Routes.parse("nopath", "--route")).hasMessageContaining("must start with '/'");
    }

    @Test void load_skipsCommentsAndNamesTheLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("routes.txt");
        Files.write(file, List.of("# downstream", "", "/orders delay=40ms", "/audit delay=later"));
        assertThatThrownBy(() -> Routes.load(file)).hasMessageStartingWith(file + ":4:");
        Files.write(file, List.of("/a delay=10ms", "# the same path again", "/a delay=20ms"));
        assertThatThrownBy(() -> Routes.load(file)).hasMessage(file + ":3: /a is already routed by " + file + ":1");
        Files.write(file, List.of("# downstream", "/orders delay=40ms", "/user delay=1ms body=Bob"));
        List<Route> merged = Routes.merge(Routes.profilePage(), Routes.load(file));
        assertThat(merged).extracting(Route::path).containsExactly("/user", "/posts", "/followers", "/orders");
        assertThat(merged.getFirst().body()).isEqualTo("Bob");
    }
}
