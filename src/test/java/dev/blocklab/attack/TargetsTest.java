package dev.blocklab.attack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TargetsTest {

    @Test
    void load_vegetaHttpFormat(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("body.json"), "{\"a\":1}");
        Files.writeString(dir.resolve("targets.txt"), """
                # two targets
                GET http://127.0.0.1:8080/a
                X-Trace: 1

                POST http://127.0.0.1:8080/b?x=y
                Content-Type: application/json
                @body.json
                """);
        List<Target> ts = Targets.load(dir.resolve("targets.txt"), List.of(Map.entry("Auth", "t")), new byte[0]);
        assertThat(ts).hasSize(2);
        assertThat(ts.get(0).method()).isEqualTo("GET");
        assertThat(ts.get(0).headers()).containsExactly(Map.entry("Auth", "t"), Map.entry("X-Trace", "1"));
        assertThat(ts.get(1).pathAndQuery()).isEqualTo("/b?x=y");
        assertThat(new String(ts.get(1).body())).isEqualTo("{\"a\":1}");
    }

    @Test
    void parse_errorsNameFileAndLine() {
        assertThatThrownBy(() -> Targets.parse("t.txt", List.of("GET"), null, List.of(), new byte[0]))
                .hasMessageStartingWith("t.txt:1: expected 'METHOD URL'");
        assertThatThrownBy(() -> Targets.parse("t.txt", List.of("", "GET ftp://x/"), null, List.of(), new byte[0]))
                .hasMessageStartingWith("t.txt:2: ").hasMessageContaining("only http://");
        assertThatThrownBy(() -> Targets.parse("t.txt", List.of("GET http://x/", "no header"), null, List.of(), new byte[0]))
                .hasMessageStartingWith("t.txt:2: 'no header' is not a header");
        assertThatThrownBy(() -> Targets.parse("t.txt", List.of("# nothing"), null, List.of(), new byte[0]))
                .hasMessageContaining("no targets");
    }

    @Test
    void parseUrl_rejectsMalformed() {
        assertThatThrownBy(() -> Target.parseUrl("localhost:8080/x")).hasMessageContaining("not an absolute URL");
        assertThatThrownBy(() -> Target.parseUrl("http://exa mple/")).hasMessageContaining("not a URL");
        assertThatThrownBy(() -> Target.parseUrl("https://127.0.0.1/")).hasMessageContaining("only http://");
        assertThat(Target.get("http://127.0.0.1/").port()).isEqualTo(80);
    }
}
