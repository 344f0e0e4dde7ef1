package dev.blocklab.cli;

import dev.blocklab.attack.TrivialServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;

class AttackCommandTest {
    private static TrivialServer server;

    @BeforeAll static void start() { server = TrivialServer.start(0, 1); }

    @AfterAll static void stop() { server.close(); }


    private static void assertUsage(Cli.Run r, String flagOrWord) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().filter(l -> l.startsWith("blocklab: ")).toList()).hasSize(1)
                .first().asString().contains(flagOrWord);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void execute_badInput_oneLineNamingTheFlagAndExit2() {
        String ok = "http://127.0.0.1:" + server.port() + "/";
        assertUsage(Cli.run("attack", "not a url"), "URL");
        assertUsage(Cli.run("attack", "127.0.0.1:8080"), "URL");
        assertUsage(Cli.run("attack", ok, "--rate", "fast"), "--rate");
        assertUsage(Cli.run("attack", ok, "--rate", "0/s"), "--rate");
        assertUsage(Cli.run("attack", ok, "--duration", "ten"), "--duration");
        assertUsage(Cli.run("attack", ok, "--timeout", "-1s"), "--timeout");
        assertUsage(Cli.run("attack", ok, "--fail-if", "p99>>1s"), "--fail-if");
        assertUsage(Cli.run("attack", ok, "--format", "xml"), "--format");
        assertUsage(Cli.run("attack", ok, "--header", "nocolon"), "--header");
        assertUsage(Cli.run("attack", ok, "--max-connections", "0"), "--max-connections");
        assertUsage(Cli.run("attack", ok, "--users", "3", "--rate", "5/s"), "--rate");
        assertUsage(Cli.run("attack", ok, "--body", "@/no/such/file"), "--body");
        assertUsage(Cli.run("attack"), "URL");
        assertUsage(Cli.run("attack", ok, "--rate", "10/s,20/s,30/s", "--step", "2s", "--duration", "3s"), "--step");
    }

    @Test
    void execute_startAtWhoseScheduleHasEnded_exit2_beforeTouchingTheSaveFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws IOException {
        String ok = "http://127.0.0.1:" + server.port() + "/";
        java.nio.file.Path save = java.nio.file.Files.writeString(dir.resolve("kept.jsonl"), "{\"kind\":\"x\"}\n");
        assertUsage(Cli.run("attack", ok, "--duration", "3s", "--start-at", "2020-01-01T00:00:00Z", "--save", save.toString()), "--start-at");
        assertUsage(Cli.run("attack", ok, "--duration", "3s", "--start-at", "2020-01-01T00:00:00Z", "--workers", "2"), "--start-at");
        assertThat(java.nio.file.Files.readString(save)).as("an earlier results file is not truncated").isEqualTo("{\"kind\":\"x\"}\n");
    }

    @Test
    void execute_trivialServer_printsVegetaReport() {
        Cli.Run r = Cli.run("attack", "http://127.0.0.1:" + server.port() + "/", "--rate", "50/s", "--duration", "400ms", "--quiet",
                "--fail-if", "success<99%");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("(?m)^Requests      \\[total, rate, throughput\\] +\\d+, ");
        assertThat(r.out()).containsPattern("(?m)^Status Codes  \\[code:count\\] +200:\\d+$");
        assertThat(r.out()).contains("Error Set:\n").contains("intended send time");
    }

    @Test
    void execute_unreachableTarget_reportsErrorsExit0UnlessAThresholdFails() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) { closed = s.getLocalPort(); }
        String url = "http://127.0.0.1:" + closed + "/";
        Cli.Run plain = Cli.run("attack", url, "--rate", "20/s", "--duration", "250ms", "--quiet", "--format", "json");
        assertThat(plain.exit()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("\"requests\" : 5").contains("\"0\" : 5").contains("\"successRatio\" : 0.0");

        Cli.Run failing = Cli.run("attack", url, "--rate", "20/s", "--duration", "250ms", "--quiet", "--fail-if", "success<99%", "--fail-if", "p99>1h");
        assertThat(failing.exit()).isEqualTo(1);
        assertThat(failing.out()).contains("Error Set:\nGet " + url + ": ");
        assertThat(failing.err()).contains("blocklab: fail-if success<99%: success was 0.00%").doesNotContain("p99>1h");
    }
}
