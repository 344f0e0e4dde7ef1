package dev.blocklab.cli;

import dev.blocklab.attack.TrivialServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code attack --html} and {@code --save}, then {@code report} rebuilding the same page from the saved file. */
class AttackHtmlTest {
    private static TrivialServer server;
    @TempDir Path tmp;

    @BeforeAll static void start() { server = TrivialServer.start(0, 1); }

    @AfterAll static void stop() { server.close(); }

    private static int run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void attack_html_drawsTimelineChartsAndRoundTripsThroughReport() throws Exception {
        Path html = tmp.resolve("attack.html");
        Path save = tmp.resolve("attack.jsonl");
        int exit = run("attack", "http://127.0.0.1:" + server.port() + "/", "--rate", "200/s", "--duration", "2s",
                "--quiet", "--html", html.toString(), "--save", save.toString());
        assertThat(exit).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("<svg").contains("latency percentiles over time").containsIgnoringCase("scheduled")
                .contains("status codes");
        assertThat(Pattern.compile("<polyline").matcher(page).results().count()).isGreaterThanOrEqualTo(3);
        // the saved file ends with the whole result (then the page's title), which report turns back into a page with the same charts
        var lines = Files.readAllLines(save);
        assertThat(lines.get(lines.size() - 2)).contains("\"kind\":\"experiment-result\"").contains("\"experiment\":\"attack\"");
        assertThat(lines.getLast()).startsWith("{\"kind\":\"page\",\"title\":\"attack GET ");
        Path rebuilt = tmp.resolve("rebuilt.html");
        assertThat(run("report", save.toString(), "--format", "html", "--out", rebuilt.toString())).isZero();
        String again = Files.readString(rebuilt);
        assertThat(again).contains("latency percentiles over time");
        assertThat(Pattern.compile("<polyline").matcher(again).results().count())
                .isEqualTo(Pattern.compile("<polyline").matcher(page).results().count());
    }
}
