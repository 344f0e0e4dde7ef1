package dev.blocklab.attack;

import dev.blocklab.load.Pacer;
import dev.blocklab.result.AttackResult;
import dev.blocklab.report.AttackReportFormat;
import dev.blocklab.driver.Progress;
import dev.blocklab.workload.Arrival;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Real sockets on 127.0.0.1 against the trivial server; small rates, about a second each. */
class AttackEndToEndTest {
    private static final long S = 1_000_000_000L;
    private static TrivialServer server;

    @BeforeAll static void start() { server = TrivialServer.start(0, 1); }

    @AfterAll static void stop() { server.close(); }

    private static String url(String path) { return "http://127.0.0.1:" + server.port() + path; }

    /** A thread that stops {@code attack} after {@code millis}. */
    /**
     * Stops the attack once {@code sent} is counted down (a request reached the target), then {@code millis} later:
     * on an event, not after a delay alone, which a busy machine can spend before the first send.
     */
    private static Thread stopAfter(Attack attack, java.util.concurrent.CountDownLatch sent, long millis) {
        return Thread.ofPlatform().start(() -> {
            try {
                sent.await(30, java.util.concurrent.TimeUnit.SECONDS);
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                return;
            }
            attack.stop();
        });
    }

    @Test
    void run_200PerSecondForOneSecond_countsEveryResponse(@TempDir Path dir) throws IOException {
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))), new Arrival.Open(new Pacer.Constant(200), S))
                .withTimeoutNanos(10 * S);
        Path hits = dir.resolve("hits.csv"), hlog = dir.resolve("a.hlog");
        List<String> progress = new CopyOnWriteArrayList<>();
        AttackResult r = new Attack(settings).run(progress::add, AttackListener.all(List.of(new HitsFile(hits), new HlogFile(hlog))));

        // Every scheduled request is sent unless the loop fell more than 100 ms behind (a very busy machine).
        assertThat(r.requests() + r.unsent()).isEqualTo(200);
        assertThat(r.requests()).isGreaterThan(100);
        long n = r.requests();
        assertThat(r.statusCodes()).as(r.errors().toString()).containsExactly(java.util.Map.entry(200, n));
        assertThat(r.successRatio()).isEqualTo(1.0);
        assertThat(r.errors()).isEmpty();
        assertThat(r.bytesIn()).isEqualTo(n * 3);
        assertThat(r.latencyMillis().count()).isEqualTo(n);
        assertThat(r.latencyMillis().min()).isGreaterThan(0);
        assertThat(r.latencyMillis().max()).isGreaterThanOrEqualTo(r.serviceTimeMillis().max() - 0.01);
        // first send to last: the last one sent is not sent before its due time, (n - 1) x 5 ms in, nor the first
        // (due at 0) later than the worst lateness, so they span at least the difference (5 ms of margin for the
        // histogram's rounding). A fixed floor of 800 ms failed at 606 ms on a loaded machine that sent late
        long latestSendNanos = (long) (r.health().delays().sendLatenessMillis().max() * 1e6);
        assertThat(r.attackNanos()).isBetween((r.requests() - 1) * S / 200 - latestSendNanos - 5_000_000L, 5 * S);
        // how far through the schedule: "attack 250ms of 1s  sent ..."
        assertThat(progress).isNotEmpty().allMatch(l -> l.matches("attack \\S+ of 1s  sent .*") || l.equals("warm-up 1s (discarded)")
                || l.startsWith("attack: the 1s schedule is over, waiting for the last answers;  sent ")
                || l.startsWith("warm-up: "));
        assertThat(progress.getFirst()).as("warm by default").isEqualTo("warm-up 1s (discarded)");
        assertThat(Files.readAllLines(hits)).hasSize((int) n + 1).first().isEqualTo(HitsFile.HEADER);
        assertThat(Files.readString(hlog)).contains("HISTFAA");
    }

    @Test
    void run_severalTargets_roundRobinWithTheirStatuses() {
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/")), Target.get(url("/status/503"))),
                new Arrival.Open(new Pacer.Constant(100), S / 2));
        AttackResult r = Attack.run(settings, Progress.NONE);
        assertThat(r.requests() + r.unsent()).isEqualTo(50);
        long ok = r.statusCodes().get(200), unavailable = r.statusCodes().get(503);
        assertThat(ok + unavailable).isEqualTo(r.requests());
        assertThat(ok - unavailable).as("round-robin, starting with the first target").isBetween(0L, 1L);
        assertThat(r.successRatio()).isEqualTo((double) ok / r.requests());
        assertThat(r.errors()).containsEntry("Get " + url("/status/503") + ": status 503", unavailable);
    }

    @Test
    void refuseEnded_aCommonStartWhoseScheduleHasEnded_isRefused_aLateOneKept() {
        Arrival schedule = new Arrival.Open(new Pacer.Constant(50), 3 * S);
        java.time.Instant now = java.time.Instant.parse("2026-11-28T02:00:00Z");
        assertThatThrownBy(() -> Attack.refuseEnded(schedule, now.minusSeconds(5), now)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--start-at 2026-11-28T01:59:55Z: the schedule it starts (3s) ended 2s ago, so nothing would be sent");
        assertThatThrownBy(() -> Attack.refuseEnded(schedule, java.time.Instant.MIN, now)).hasMessageContaining(" days ago");
        assertThat(Attack.refuseEnded(schedule, now.minusSeconds(2), now)).as("2 s late in a 3 s schedule: it owes the rest, sent late")
                .isEqualTo(now.minusSeconds(2));
        assertThat(Attack.refuseEnded(schedule, now.plusSeconds(3600), now)).isEqualTo(now.plusSeconds(3600));
    }

    @Test
    void run_warmUp_isSentButNotCounted() {
        List<Hit> hits = new CopyOnWriteArrayList<>();
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))), new Arrival.Open(new Pacer.Constant(100), S / 2))
                .withWarmupNanos(S / 2);
        List<String> events = new CopyOnWriteArrayList<>();   // the attack's progress lines and the listener's calls, in order
        AttackResult r = new Attack(settings).run(line -> events.add("progress: " + line), new AttackListener() {
            @Override public void onMeasuredStart() { events.add("measured start, after " + hits.size() + " hits"); }
            @Override public void onHit(Hit hit) { hits.add(hit); }
        });
        assertThat(r.requests() + r.unsent()).isEqualTo(50);
        assertThat(hits).hasSize((int) r.requests()).allMatch(h -> h.index() < 50);
        List<String> starts = events.stream().filter(e -> e.startsWith("measured start")).toList();
        assertThat(starts).as("told once, before the first measured hit").containsExactly("measured start, after 0 hits");
        int warmUp = events.indexOf(events.stream().filter(e -> e.startsWith("progress: warm-up")).findFirst().orElseThrow());
        assertThat(events.indexOf(starts.getFirst())).as("after the warm-up began: " + events).isGreaterThan(warmUp);
        assertThat(r.description()).endsWith("after a 500ms warm-up (discarded)");
    }

    @Test
    void run_warmUp_itsRequestsAreAnsweredBeforeTheMeasuredScheduleStarts() throws Exception {
        // The warm-up's last requests (sent up to its end) must not be in flight when the measured schedule starts,
        // or the measured requests would queue behind them.
        try (SlowTarget slow = SlowTarget.start()) {
            List<String> progress = new CopyOnWriteArrayList<>();
            // the warm-up (1 s) bounds how long its requests are awaited: longer than the target's 300 ms
            AttackSettings settings = AttackSettings.of(List.of(Target.get(slow.uri())), new Arrival.Open(new Pacer.Constant(50), S / 2))
                    .withWarmupNanos(S);
            AttackResult r = new Attack(settings).run(progress::add, AttackListener.NONE);
            assertThat(r.successRatio()).isEqualTo(1.0);
            assertThat(r.latencyMillis().min()).as("every measured request waited only for the target").isBetween(290.0, 10_000.0);
            slow.assertWarmUpAnsweredBeforeMeasured(r.requests());
            assertThat(progress).anyMatch(l -> l.startsWith("warm-up: ") && l.endsWith("requests still in flight (discarded)"));
        }
    }

    @Test
    void run_shardWarmUp_isAnsweredBeforeTheCommonStart() throws Exception {
        // A shard's warm-up ends at the common start, which does not wait: it stops sending early enough (a fifth
        // of its time before: 600 ms of 3 s, against the target's 300 ms) for its requests to be answered by then.
        // The start is asked once the client is up, so a slow start-up does not shorten the warm-up.
        try (SlowTarget slow = SlowTarget.start()) {
            List<String> progress = new CopyOnWriteArrayList<>();
            AttackSettings settings = AttackSettings.of(List.of(Target.get(slow.uri())), new Arrival.Open(new Pacer.Constant(100), S / 2))
                    .withWarmupNanos(3 * S);
            AttackResult r = new Attack(settings, new dev.blocklab.load.Shard(0, 2), () -> java.time.Instant.now().plusMillis(3_100))
                    .run(progress::add, AttackListener.NONE);
            assertThat(r.successRatio()).isEqualTo(1.0);
            // a busy machine may leave some unsent at the schedule's end (the send loop gives up 100 ms after it)
            assertThat(r.requests() + r.unsent()).as("shard 0 of 2 sends every other request of 100/s for 0.5 s").isEqualTo(25);
            assertThat(r.requests()).isPositive();
            slow.assertWarmUpAnsweredBeforeMeasured(r.requests());
            assertThat(progress).anyMatch(l -> l.startsWith("warm-up: ") && l.endsWith("requests still in flight (discarded)"));
        }
    }

    /** A local target that answers after 300 ms, recording when each request arrived and when it was answered. */
    private record SlowTarget(com.sun.net.httpserver.HttpServer server, List<long[]> served) implements AutoCloseable {
        static SlowTarget start() throws IOException {
            List<long[]> served = new CopyOnWriteArrayList<>(); // {arrived, answered} in System.nanoTime
            com.sun.net.httpserver.HttpServer slow = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
            slow.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            slow.createContext("/", ex -> {
                long arrived = System.nanoTime();
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                served.add(new long[]{arrived, System.nanoTime()}); // before the answer, so the attack sees none unrecorded
                byte[] ok = "ok".getBytes();
                ex.sendResponseHeaders(200, ok.length);
                ex.getResponseBody().write(ok);
                ex.close();
            });
            slow.start();
            return new SlowTarget(slow, served);
        }

        String uri() { return "http://127.0.0.1:" + server.getAddress().getPort() + "/"; }

        /**
         * Arrivals in order: the warm-up's first, then the {@code measured} requests of the measured schedule; each of
         * the warm-up's was answered before the first measured one arrived.
         */
        void assertWarmUpAnsweredBeforeMeasured(long measured) {
            List<long[]> byArrival = served.stream().sorted(java.util.Comparator.comparingLong(a -> a[0])).toList();
            int warm = (int) (byArrival.size() - measured);
            assertThat(warm).as("the warm-up sent requests").isPositive();
            long lastWarmAnswered = byArrival.subList(0, warm).stream().mapToLong(a -> a[1]).max().orElseThrow();
            long firstMeasuredArrived = byArrival.get(warm)[0];
            long t0 = byArrival.getFirst()[0];
            assertThat(firstMeasuredArrived).as("the measured schedule starts after the warm-up is answered; %d warm-up requests, "
                    + "arrived/answered ms: %s", warm, byArrival.stream().map(a -> (a[0] - t0) / 1_000_000 + "/" + (a[1] - t0) / 1_000_000).toList())
                    .isGreaterThan(lastWarmAnswered);
        }

        @Override public void close() { server.stop(0); }
    }

    @Test
    void run_closedUsers_eachWaitsForItsResponse() {
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))), new Arrival.Closed(2, S / 2));
        AttackResult r = Attack.run(settings, Progress.NONE);
        assertThat(r.requests()).isGreaterThan(2);
        assertThat(r.successRatio()).isEqualTo(1.0);
        assertThat(r.lateSends()).isZero();
    }

    @Test
    void run_jdkClient_sameCounts() {
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))), new Arrival.Open(new Pacer.Constant(100), S / 2))
                .withClient(AttackSettings.Client.JDK).withMaxConnections(4);
        AttackResult r = Attack.run(settings, Progress.NONE);
        assertThat(r.requests() + r.unsent()).isEqualTo(50);
        assertThat(r.statusCodes()).containsExactly(java.util.Map.entry(200, r.requests()));
    }

    @Test
    void run_portClosed_countsEveryRequestAsAnError() throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) { closed = s.getLocalPort(); }
        AttackSettings settings = AttackSettings.of(List.of(Target.get("http://127.0.0.1:" + closed + "/")),
                new Arrival.Open(new Pacer.Constant(100), S / 2)).withTimeoutNanos(5 * S);
        AttackResult r = Attack.run(settings, Progress.NONE);
        assertThat(r.requests() + r.unsent()).isEqualTo(50);
        assertThat(r.statusCodes()).containsExactly(java.util.Map.entry(0, r.requests()));
        assertThat(r.successRatio()).isZero();
        assertThat(r.errorCount()).isEqualTo(r.requests());
        assertThat(r.errors().keySet()).allMatch(e -> e.startsWith("Get http://127.0.0.1:" + closed + "/: "));
    }

    @Test
    void run_targetClosesEachConnectionUnderItsSecondRequest_everyRequestAnswered_theRetriesReported() throws Exception {
        // Each connection: the first request answered (kept alive), the second read and the connection closed
        // unanswered, as a server whose idle timeout races a request does; so connections never serve twice.
        List<java.net.Socket> sockets = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger closedUnder = new java.util.concurrent.atomic.AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 100, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    for (int n = 0; n < 500; n++) {
                        java.net.Socket s = server.accept();
                        sockets.add(s);
                        Thread.ofVirtual().start(() -> {
                            try (s) {
                                s.setSoTimeout(10_000);
                                var in = s.getInputStream();
                                if (!readHead(in)) return;
                                s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
                                s.getOutputStream().flush();
                                if (readHead(in)) closedUnder.incrementAndGet();
                            } catch (IOException e) {
                                // the client closed, or the bounded wait ended
                            }
                        });
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            AttackSettings settings = AttackSettings.of(List.of(Target.get("http://127.0.0.1:" + server.getLocalPort() + "/")),
                    new Arrival.Open(new Pacer.Constant(20), S)).withWarmupNanos(0).withTimeoutNanos(10 * S);
            AttackResult r = Attack.run(settings, Progress.NONE);
            server.close();
            acceptor.join();
            for (java.net.Socket s : sockets) s.close();

            assertThat(r.requests()).isPositive();
            assertThat(r.successRatio()).isEqualTo(1.0);
            assertThat(r.errorCount()).isZero();
            assertThat(r.retried()).as("requests sent again").isPositive().isLessThanOrEqualTo(closedUnder.get());
            assertThat(dev.blocklab.report.Jsons.mapper().readTree(AttackReportFormat.JSON.create().render(r)).get("retried").asLong())
                    .isEqualTo(r.retried());
            assertThat(AttackReportFormat.TEXT.create().render(r)).contains("Retried");
        }
    }

    /** Reads one request's head (to its blank line); false at the end of the stream. */
    private static boolean readHead(java.io.InputStream in) throws IOException {
        int matched = 0, c;
        while ((c = in.read()) >= 0) {
            matched = (c == '\r' && (matched == 0 || matched == 2)) || (c == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : (c == '\r' ? 1 : 0);
            if (matched == 4) return true;
        }
        return false;
    }

    @Test
    void stop_fromAnotherThread_returnsWhatWasSent() throws InterruptedException {
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))), new Arrival.Open(new Pacer.Constant(100), 60 * S))
                .withWarmupNanos(0);
        Attack attack = new Attack(settings);
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        Thread stopper = stopAfter(attack, answered, 100);
        AttackResult r = attack.run(Progress.NONE, new AttackListener() {
            @Override public void onHit(Hit hit) { answered.countDown(); }
        });
        stopper.join();
        assertThat(r.stopped()).isTrue();
        assertThat(r.requests()).isBetween(1L, 5_000L);
        assertThat(r.statusCodes().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(r.requests());
        assertThat(r.latencyMillis().count()).isEqualTo(r.requests());
    }

    @Test
    void stop_targetStalls_cutOffRequestsCountTheirWaitAsLatency() throws Exception {
        // A target that accepts connections and never answers; every request is still in flight at the stop.
        List<java.net.Socket> held = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch requested = new java.util.concurrent.CountDownLatch(1);
        try (ServerSocket stall = new ServerSocket(0, 100, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        java.net.Socket s = stall.accept();
                        held.add(s);
                        Thread.ofVirtual().start(() -> {   // a request's first byte, never answered
                            try {
                                if (s.getInputStream().read() >= 0) requested.countDown();
                            } catch (IOException closed) {
                                // the test is over
                            }
                        });
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            });
            AttackSettings settings = AttackSettings.of(List.of(Target.get("http://127.0.0.1:" + stall.getLocalPort() + "/")),
                    new Arrival.Open(new Pacer.Constant(50), 60 * S)).withTimeoutNanos(30 * S).withWarmupNanos(0);
            Attack attack = new Attack(settings);
            List<Hit> hits = new CopyOnWriteArrayList<>();
            Thread stopper = stopAfter(attack, requested, 100);
            AttackResult r = attack.run(Progress.NONE, new AttackListener() {
                @Override public void onHit(Hit hit) { hits.add(hit); }
            });
            stopper.join();
            stall.close();
            acceptor.join();
            for (java.net.Socket s : held) s.close();

            assertThat(r.stopped()).isTrue();
            assertThat(r.requests()).isPositive();
            assertThat(r.cutOff()).isEqualTo(r.requests());
            assertThat(r.latencyMillis().count()).isEqualTo(r.requests());
            assertThat(r.serviceTimeMillis().count()).isEqualTo(r.requests());
            // The first request was due at the start, before the stop; the report comes after the grace.
            assertThat(r.latencyMillis().max()).isGreaterThanOrEqualTo(Attack.STOP_GRACE_NANOS / 1e6);
            assertThat(r.statusCodes()).containsExactly(java.util.Map.entry(0, r.requests()));
            assertThat(r.errors()).containsExactly(java.util.Map.entry(Attack.CUT_OFF_ERROR, r.requests()));
            assertThat(hits).hasSize((int) r.requests()).allMatch(h -> h.status() == 0 && h.latencyNanos() >= h.serviceNanos());
            assertThat(AttackReportFormat.TEXT.create().render(r))
                    .contains(r.requests() + (r.requests() == 1 ? " request" : " requests") + " cut off at the end");
        }
    }

    @Test
    void health_slowTarget_isNotInstrumentLimited() {
        // A target that takes 5 s: the attacker's own delays (even on a busy shared machine, where an idle event
        // loop still waits tens of milliseconds for a CPU) are small beside it.
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/delay/5000"))), new Arrival.Open(new Pacer.Constant(20), S))
                .withTimeoutNanos(30 * S).withWarmupNanos(0);
        AttackResult r = Attack.run(settings, Progress.NONE);
        assertThat(r.successRatio()).isEqualTo(1.0);
        assertThat(r.latencyMillis().p50()).isGreaterThanOrEqualTo(5000.0);
        assertThat(r.health().budgetMillis()).isGreaterThanOrEqualTo(250.0);
        assertThat(r.health().instrumentLimited()).as(r.health().verdictLine()).isFalse();
        assertThat(r.fellBehind()).isFalse();
        assertThat(r.health().attackerCpuCores()).isGreaterThan(0);
        assertThat(r.health().eventLoopLagP99Millis()).isNotNaN();
    }

    /**
     * 1.5 s at 1,000/s against the fast target (1,500 scheduled: over the 1,000 requests the verdict needs to judge
     * at p99 even when a starved attacker leaves some unsent), {@code hold} run on the client's event loop for
     * every response.
     */
    private AttackResult attackHoldingTheLoop(Runnable hold) {
        AttackSettings settings = AttackSettings.of(List.of(Target.get(url("/"))), new Arrival.Open(new Pacer.Constant(1000), 3 * S / 2))
                .withWarmupNanos(0).withTimeoutNanos(20 * S);
        return new Attack(settings).run(Progress.NONE, new AttackListener() {
            @Override public void onHit(Hit hit) { hold.run(); }
        });
    }

    @Test
    void health_attackerStarved_isInstrumentLimited() {
        // A fast target, but every response holds the client's event loop for 3 ms (a listener that blocks, as a
        // starved attacker would): at 1,000/s that is 3 s of work a second on 2 loops, so responses wait to be read.
        AttackResult r = attackHoldingTheLoop(() -> java.util.concurrent.locks.LockSupport.parkNanos(3_000_000L));
        assertThat(r.health().instrumentLimited()).as(r.health().verdictLine()).isTrue();
        assertThat(r.health().reasons()).anyMatch(reason -> reason.contains("event-loop lag"));
        assertThat(r.health().eventLoopLagP99Millis()).isGreaterThan(r.health().budgetMillis() / 2);
        // Where the kernel tells (Linux schedstat), the loops' lateness is split by cause: parked in the listener,
        // they were stopped more than they ran; with cores to spare, stopped for most of it (neither running nor
        // waiting for a core), and the verdict does not blame other threads. On a machine saturated by other work
        // (the verdict says so), a loop woken from its park waits for a core too: 54 % waiting, 42 % stopped, 4 %
        // running under a CPU hog.
        if (!Double.isNaN(r.health().lagWaitingShare())) {
            double stoppedShare = 1 - r.health().lagWaitingShare() - r.health().lagRunningShare();
            assertThat(stoppedShare).as(r.health().verdictLine()).isGreaterThan(r.health().lagRunningShare());
            if (!r.health().verdictLine().contains(dev.blocklab.result.InstrumentHealth.MACHINE_SATURATED)) {
                assertThat(r.health().lagWaitingShare() + r.health().lagRunningShare()).as(r.health().verdictLine()).isLessThan(0.5);
                assertThat(r.health().verdictLine()).doesNotContain(dev.blocklab.result.InstrumentHealth.WAITED_FOR_CORES);
            }
        }
    }

    @Test
    void health_attackerBusyWithItsOwnWork_splitsTheLatenessAsRunning() {
        // As above, but every response spins its event loop for 3 ms instead of parking it: the loops are late
        // because they run (or wait for a core, on a busy machine), not because they are stopped.
        AttackResult r = attackHoldingTheLoop(() -> {
            long until = System.nanoTime() + 3_000_000L;
            while (System.nanoTime() < until) Thread.onSpinWait();
        });
        assertThat(r.health().instrumentLimited()).as(r.health().verdictLine()).isTrue();
        assumeTrue(!Double.isNaN(r.health().lagWaitingShare()), "no scheduler statistics here");
        assertThat(r.health().lagWaitingShare() + r.health().lagRunningShare()).as(r.health().verdictLine()).isGreaterThan(0.5);
        // running counted as running, more than the loops were stopped: how much of it against waiting for a core is
        // the machine's (a share over 0.2 once met 9 % running, 90 % waiting, on a machine saturated by others)
        double stoppedShare = 1 - r.health().lagWaitingShare() - r.health().lagRunningShare();
        assertThat(r.health().lagRunningShare()).as(r.health().verdictLine()).isGreaterThan(stoppedShare);
        assertThat(r.health().verdictLine()).contains("running the attacker's own work");
    }
}
