package dev.blocklab.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault injection (integration tier): each way the server used to fail for good, reproduced at small scale, then
 * survival and recovery asserted: a sustainable rate right after the fault gets 100 % success. Time scale 1/10:
 * {@code /sync-blocking} holds a thread 100 ms, so {@code threads:2} serves 20 requests a second.
 */
class ServerFaultsIT {
    private static final long SCALE = 10;
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(1);

    private static ServerSettings settings(String profile) {
        return ServerSettings.of(0, ServerProfile.parse(profile)).withTimeScale(SCALE).withLog(line -> {});
    }

    /** 10 requests a second for 1 s: half of threads:2's capacity. */
    private static OpenLoopSender.Result sustainable(URI uri) {
        return OpenLoopSender.send(uri, 10, 10, CLIENT_TIMEOUT);
    }

    @Test @Timeout(60) void threadLimit_refusedThreadIs503_slotGivenBack_poolCapped_andRecovers() {
        // 16 threads wanted, the "OS" allows 6: the 7th start throws OutOfMemoryError: unable to create native thread
        List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
        ServerSettings s = settings("threads:16").withQueue(10_000).withLog(log::add);
        try (BlocklabServer server = BlocklabServer.start(s, 6)) {
            URI uri = server.uri().resolve("/sync-blocking");
            // 200 a second against 60 a second of capacity: every arrival finds all threads busy and asks for one
            OpenLoopSender.Result fault = OpenLoopSender.send(uri, 200, 200, CLIENT_TIMEOUT);
            String metrics = server.metricsText();
            assertThat(BlocklabServerTest.gauge(metrics, "blocklab_thread_start_failures_total")).as(metrics).isPositive();
            assertThat(fault.count(503)).as("refused, not lost %s", fault.statuses()).isPositive();
            assertThat(fault.count(200)).as("served meanwhile %s", fault.statuses()).isPositive();
            assertThat(log).anyMatch(l -> l.contains("the OS refused a new thread") && l.contains("capping the pool at 4"));
            assertThat(metrics).contains("blocklab_pool_thread_cap 4");

            OpenLoopSender.Result after = sustainable(uri);
            assertThat(after.statuses()).as("recovered: %s", after.statuses()).containsOnlyKeys(200);
            assertThat(server.metricsText()).contains("blocklab_requests_in_flight 0", "blocklab_requests_waiting 0");
        }
    }

    @Test @Timeout(60) void blackHoleBackend_callsTimeOut_threadsFreed_serverAnswersAgain() throws Exception {
        // a backend that accepts connections and never answers
        try (BlackHole hole = new BlackHole();
             BlocklabServer server = BlocklabServer.start(settings("threads:2").withBackend(hole.uri()))) {
            URI uri = server.uri().resolve("/sync-blocking");
            // four requests on two threads: without a call timeout they would hold both threads until the idle close
            long t0 = System.nanoTime();
            OpenLoopSender.Result fault = OpenLoopSender.send(uri, 20, 4, Duration.ofSeconds(10));
            long tookMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(fault.statuses()).as("each call times out (1 s) and is answered 504").containsOnlyKeys(504);
            assertThat(tookMillis).as("bounded by the call timeout, not the 120 s idle close").isLessThan(8_000);
            String metrics = server.metricsText();
            assertThat(metrics).contains("blocklab_handlers_running 0", "blocklab_requests_in_flight 0");
            // the error body names no class and no internal address
            var client = java.net.http.HttpClient.newHttpClient();
            var r = client.send(java.net.http.HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo("a downstream call timed out").doesNotContain("127.0.0.1", "Exception");
            // endpoints that do not call the backend answer at once
            assertThat(OpenLoopSender.send(server.uri().resolve("/health"), 10, 10, CLIENT_TIMEOUT).statuses())
                    .containsOnlyKeys(200);
        }
    }

    @Test @Timeout(90) void overload3xAnd10x_codelServesCapacity_andRecoversAtOnce() {
        for (int factor : new int[] {3, 10}) {
            Phases codel = overloadThenSustainable(Admission.CODEL, factor);
            // served about its capacity (40 in 2 s), refused the rest at once; generous for a busy machine
            assertThat(codel.overload().count(200)).as("%dx served %s", factor, codel.overload().statuses()).isGreaterThan(15);
            assertThat(codel.overload().count(503)).as("%dx shed %s", factor, codel.overload().statuses()).isPositive();
            assertThat(codel.after().statuses()).as("codel, right after %dx: %s", factor, codel.after().statuses())
                    .containsOnlyKeys(200);
        }
    }

    @Test @Timeout(60) void overload3x_fixedQueue_neverSheds_requestsTimeOutInItInstead() {
        // beside the codel case: the same overload against the fixed bound of 10,000 answers no 503 and lets
        // requests wait past their clients' timeout (recovery then comes only from cancelling the requests of
        // clients that disconnect, as this sender does on a timeout)
        Phases fixed = overloadThenSustainable(Admission.FIXED, 3);
        assertThat(fixed.overload().count(503)).as("fixed %s", fixed.overload().statuses()).isZero();
        assertThat(fixed.overload().count(0)).as("timed out in the queue %s", fixed.overload().statuses()).isPositive();
    }

    private record Phases(OpenLoopSender.Result overload, OpenLoopSender.Result after) {}

    /** threads:2 (20/s) at {@code factor} x 20/s for 2 s, then the sustainable rate at once. */
    private static Phases overloadThenSustainable(Admission admission, int factor) {
        try (BlocklabServer server = BlocklabServer.start(settings("threads:2").withAdmission(admission))) {
            URI uri = server.uri().resolve("/sync-blocking");
            OpenLoopSender.warmUp(server.uri().resolve("/health"));
            OpenLoopSender.Result overload = OpenLoopSender.send(uri, 20.0 * factor, 40 * factor, CLIENT_TIMEOUT);
            return new Phases(overload, sustainable(uri));
        }
    }

    @Test @Timeout(60) void play25AsyncBlocking_isBoundedByCommonPoolQueueingDelay_andRecovers() {
        // async-blocking holds the common pool's thread(s) for 100 ms a request at this scale: a few a second
        int commonPool = Math.max(1, java.util.concurrent.ForkJoinPool.getCommonPoolParallelism());
        double capacity = 10.0 * commonPool;
        try (BlocklabServer server = BlocklabServer.start(settings("play-2.5"))) {
            URI uri = server.uri().resolve("/async-blocking");
            OpenLoopSender.Result overload = OpenLoopSender.send(uri, capacity * 5, (int) (capacity * 10), CLIENT_TIMEOUT);
            assertThat(overload.count(503)).as("shed %s", overload.statuses()).isPositive();
            assertThat(server.metricsText()).contains("blocklab_requests_in_flight 0");
            OpenLoopSender.Result after = OpenLoopSender.send(uri, capacity / 2, (int) Math.max(3, capacity / 2), CLIENT_TIMEOUT);
            assertThat(after.statuses()).as("recovered %s", after.statuses()).containsOnlyKeys(200);
        }
    }

    @Test @Timeout(90) void fileDescriptorExhaustion_acceptorSurvives_andAcceptsAgain() throws Exception {
        String jar = System.getProperty("blocklab.jar", "target/blocklab.jar");
        assertThat(new java.io.File(jar)).as("the packaged jar (failsafe runs after package)").exists();
        String java = ProcessHandle.current().info().command().orElse("java");
        // a child JVM with 256 file descriptors, far fewer than the connections the test opens
        Process serve = new ProcessBuilder("bash", "-c", "ulimit -n 256 && exec \"$0\" --enable-preview -jar \"$1\""
                + " serve --port 0 --profile threads:2 --time-scale 10", java, jar)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            URI base = listening(serve.getInputStream());
            List<Socket> flood = new ArrayList<>();
            try {
                for (int i = 0; i < 400; i++) {
                    Socket c = new Socket();
                    try {
                        c.connect(new InetSocketAddress(base.getHost(), base.getPort()), 2_000);
                        flood.add(c);
                    } catch (IOException refusedOrTimedOut) {
                        c.close();
                    }
                }
                Thread.sleep(1_500);   // the acceptor meets EMFILE while these are open
            } finally {
                for (Socket c : flood) c.close();
            }
            // Netty pauses accepting for 1 s after EMFILE; the server must accept again once clients leave
            OpenLoopSender.Result after = null;
            for (int attempt = 0; attempt < 5; attempt++) {
                Thread.sleep(1_000);
                after = OpenLoopSender.send(base.resolve("/sync-blocking"), 10, 10, CLIENT_TIMEOUT);
                if (after.count(200) == 10) break;
            }
            assertThat(after.statuses()).as("accepts again after the flood").containsOnlyKeys(200);
            assertThat(serve.isAlive()).isTrue();
        } finally {
            serve.destroy();   // SIGTERM
            assertThat(serve.waitFor(20, TimeUnit.SECONDS)).as("SIGTERM stops it").isTrue();
        }
    }

    private static URI listening(InputStream out) throws IOException {
        var reader = new java.io.BufferedReader(new java.io.InputStreamReader(out, java.nio.charset.StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine())
            if (line.startsWith("listening on ")) {
                Thread.ofPlatform().daemon().start(() -> {   // keep draining stdout
                    try {
                        while (reader.readLine() != null) { /* discard */ }
                    } catch (IOException ignored) {
                        // the process ended
                    }
                });
                return URI.create(line.substring("listening on ".length()).trim());
            }
        throw new IOException("blocklab serve ended before listening");
    }
}
