package dev.blocklab.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;

class ServeCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test void serve_portInUse_oneLineAndExit2() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            int code = run("serve", "--port", String.valueOf(taken.getLocalPort()));
            assertThat(code).isEqualTo(2);
            assertThat(err.toString().strip().lines()).hasSize(1);
            assertThat(err.toString()).startsWith("blocklab: --port " + taken.getLocalPort() + ": cannot listen on 127.0.0.1:");
            assertThat(out.toString()).doesNotContain("listening");
        }
    }

    @Test void abandonedLine_namesEveryPartTheStopLeft_inOneLine() {
        var stopped = new dev.blocklab.server.BlocklabServer.Stopped(java.time.Duration.ofSeconds(1),
                java.util.List.of("6,738 connections", "the model of /run/profile-page/fixed:8", "the backend (simulated)"), java.util.List.of());
        assertThat(ServeCommand.abandonedLine(stopped)).isEqualTo("blocklab serve: the stop's 1000 ms ran out; abandoned"
                + " 6,738 connections, the model of /run/profile-page/fixed:8 and the backend (simulated)"
                + " (their requests were cancelled; the exit ends them)");
    }

    @Test void serveAndBackend_badHost_oneLineNamingHost_exit2() {
        for (String command : new String[]{"serve", "backend"}) {
            Cli.Run unresolved = Cli.run(command, "--host", "256.1.1.1", "--port", "0");
            assertThat(unresolved.exit()).as(unresolved.err()).isEqualTo(2);
            assertThat(unresolved.err()).isEqualTo("blocklab: --host: cannot resolve '256.1.1.1'\n");
            Cli.Run notHere = Cli.run(command, "--host", "192.0.2.1", "--port", "0");   // TEST-NET-1: no machine's address
            assertThat(notHere.exit()).as(notHere.err()).isEqualTo(2);
            assertThat(notHere.err().strip().lines()).hasSize(1);
            assertThat(notHere.err()).startsWith("blocklab: --host 192.0.2.1: cannot listen on 192.0.2.1:0 (");
        }
    }

    @Test void serve_twoWorkloadFilesOfOneName_refusedInOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path copy = dir.resolve("copy.yaml");
        java.nio.file.Files.copy(java.nio.file.Path.of("examples/account-page.yaml"), copy);
        int code = run("serve", "--port", "0", "--workload", "examples/account-page.yaml", "--workload", copy.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("blocklab: --workload " + copy + ": another --workload file is also named 'account-page'");
        assertThat(out.toString()).doesNotContain("listening");
    }

    @Test void unreachable_saysWhyNothingAnswers_andNothingWhenSomethingDoes() throws Exception {
        try (ServerSocket open = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            assertThat(ServeCommand.unreachable(java.net.URI.create("http://127.0.0.1:" + open.getLocalPort()))).isEmpty();
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        assertThat(ServeCommand.unreachable(java.net.URI.create("http://127.0.0.1:" + closed))).hasValueSatisfying(why -> assertThat(why).containsIgnoringCase("refused"));
    }

    @Test void backend_portInUse_oneLineAndExit2() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"))) {
            assertThat(run("backend", "--port", String.valueOf(taken.getLocalPort()))).isEqualTo(2);
            assertThat(err.toString().strip().lines()).hasSize(1);
            assertThat(err.toString()).contains("--port " + taken.getLocalPort());
        }
    }

    @Test void serve_badProfileOrBackend_exit2NamingTheFlag() {
        assertThat(run("serve", "--port", "0", "--profile", "tomcat")).isEqualTo(2);
        assertThat(err.toString()).contains("--profile: unknown profile 'tomcat'");
        assertThat(run("serve", "--port", "0", "--backend-url", "ftp://x")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend-url: 'ftp://x' is not an http://HOST:PORT URL");
        assertThat(run("serve", "--port", "0", "--backend", "simulated", "--backend-url", "http://127.0.0.1:9100")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend simulated and --backend-url both name the backend: choose one");
        assertThat(run("serve", "--port", "0", "--backend", "http")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend http needs --backend-url URL");
        assertThat(run("serve", "--port", "0", "--backend", "bogus")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend must be simulated, postgres, redis or postgres,redis, or http with --backend-url, got 'bogus'");
        assertThat(run("serve", "--port", "0", "--redis-pool", "4")).isEqualTo(2);
        assertThat(err.toString()).contains("--redis-pool sizes the Redis pool: it needs --backend redis or --redis-url");
        assertThat(run("serve", "--port", "0", "--queue", "0")).isEqualTo(2);
        assertThat(err.toString()).contains("--queue must be at least 1");
    }

    @Test void serve_dbWithABackendUrlOrWithoutWorkload_oneLineExit2_beforeStartingAnything() {
        assertThat(run("serve", "--port", "0", "--backend", "postgres", "--backend-url", "http://127.0.0.1:9100",
                "--workload", "examples/slow-query.yaml")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend-url and --backend postgres or redis (or --postgres-url, --redis-url) both name the backend: choose one");
        assertThat(run("serve", "--port", "0", "--backend", "redis")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend postgres or redis serves the sql: and redis: steps of --workload files: add --workload FILE");
        assertThat(err.toString().strip().lines()).hasSize(2);
        assertThat(out.toString()).doesNotContain("listening");
        // a mistake in the command is named before what the machine lacks (redis-server), wherever it runs
        assertThat(run("serve", "--port", "0", "--backend", "redis", "--db-pool", "4", "--workload", "examples/slow-query.yaml")).isEqualTo(2);
        assertThat(err.toString()).contains("--db-pool sizes the PostgreSQL pool: it needs --backend postgres or --postgres-url");
    }

    @Test void serve_formerNames_dbAndBackendUrl_stillParseToTheSameChecks() {
        assertThat(run("serve", "--port", "0", "--db", "postgres", "--backend", "http://127.0.0.1:9100",
                "--workload", "examples/slow-query.yaml")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend-url and --backend postgres or redis");
        assertThat(run("serve", "--port", "0", "--db", "redis")).isEqualTo(2);
        assertThat(err.toString()).contains("--backend postgres or redis serves the sql: and redis: steps");
        assertThat(out.toString()).doesNotContain("listening");
    }

    @Test void backend_badRoute_exit2NamingTheFlag() {
        assertThat(run("backend", "--port", "0", "--route", "/x delay=soon")).isEqualTo(2);
        assertThat(err.toString()).contains("blocklab: --route: '/x delay=soon'");
        assertThat(run("backend", "--port", "0", "--route", "/a delay=10ms", "--route", "/a delay=20ms")).isEqualTo(2);
        assertThat(err.toString()).contains("blocklab: --route '/a delay=20ms': /a is already routed by --route '/a delay=10ms'");
    }

    @Test void help_endsWithExamples() {
        assertThat(run("serve", "--help")).isZero();
        assertThat(out.toString()).contains("Examples:", "blocklab serve --profile play-2.5");
        assertThat(run("backend", "--help")).isZero();
        assertThat(out.toString()).contains("blocklab backend --port 9100");
    }

    /**
     * Starts a long-running command on port 0, waits (bounded) for its 'listening on' line and {@code lines} lines in
     * all, stops it, returns stdout.
     */
    private static String startedOutput(int lines, String... args) throws InterruptedException {
        StringWriter out = new StringWriter();
        Thread t = Thread.ofPlatform().daemon().start(() -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(new StringWriter(), true)));
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!(out.toString().contains("listening on") && out.toString().lines().count() >= lines) && System.nanoTime() < deadline
                && t.isAlive()) Thread.sleep(20);
        // anything printed after those lines (the line after 'listening on' is printed by the same thread at once,
        // but a loaded machine can hold that thread off a core past a fixed wait)
        Thread.sleep(200);
        t.interrupt();
        t.join(10_000);
        return out.toString();
    }

    @Test void serveAndBackend_quiet_onlyTheListeningLine() throws Exception {
        for (String command : new String[]{"serve", "backend"}) {
            String quiet = startedOutput(1, command, "--port", "0", "--quiet");
            assertThat(quiet.lines()).as(command + " --quiet").hasSize(1).allMatch(l -> l.startsWith("listening on http://127.0.0.1:"));
        }
        assertThat(startedOutput(2, "backend", "--port", "0").lines().count()).isGreaterThan(1);
    }
}
