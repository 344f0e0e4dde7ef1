package dev.blocklab.experiment;

import dev.blocklab.result.AttackResult;
import dev.blocklab.attack.Attack;
import dev.blocklab.attack.AttackListener;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.attack.Target;
import dev.blocklab.load.Pacer;
import dev.blocklab.backend.BackendServer;
import dev.blocklab.recorder.ProcessMetrics;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.Table;
import dev.blocklab.server.BlocklabServer;
import dev.blocklab.server.PekkoHttpServer;
import dev.blocklab.workload.Arrival;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Seed 001 on Play's successor beside its emulation: each of the talk's {@code play-2.5} attacks against
 * {@code serve --profile play-2.5} (Vert.x with a dispatcher shaped like Play 2.5's) and then against the same
 * endpoints on Pekko HTTP with Pekko's default dispatcher ({@link PekkoHttpServer}), both calling one backend
 * server over HTTP, attacked at the same scaled rate by the same open-loop attacker.
 */
final class ProfilePagePekkoExperiment implements Experiment {
    static final String PEKKO_HTTP_VERSION = "1.3.0";
    /** Over this relative difference in success ratio or median latency, a pair is flagged. */
    static final double FLAG_RELATIVE = 0.20;
    /** ... and by more than 5 points: 2 % against 3 % is one request in a hundred, not a difference. */
    static final double FLAG_MIN_POINTS = 0.05;

    /**
     * One attack on one server.
     *
     * @param server        {@code play-2.5 (Vert.x)} or {@code pekko-http}
     * @param successRatio  responses with a status in [200, 400) over requests sent, a fraction
     * @param latencyMillis from each request's intended send time
     * @param cpuMillisPerRequest the whole process's CPU time (getrusage) from the measured attack's start to its
     *                            end, over its requests: server, attacker and backend together, so the two sides
     *                            compare like with like
     */
    public record Side(String server, long requests, double successRatio, LatencyMillis latencyMillis,
                       SortedMap<Integer, Long> statusCodes, boolean fellBehind, double cpuMillisPerRequest) {
        static Side of(String server, AttackResult r, ProcessMetrics.Snapshot before, ProcessMetrics.Snapshot after) {
            double cpuMillis = (after.cpuNanos() - before.cpuNanos()) / 1e6;
            return new Side(server, r.requests(), r.successRatio(), r.latencyMillis(), r.statusCodes(), r.fellBehind(),
                    r.requests() == 0 ? 0 : cpuMillis / r.requests());
        }
    }

    /**
     * One of the talk's attacks on both servers.
     *
     * @param articleP50Millis      the talk's median latency divided by the time scale, as profile-page's
     * @param articleP99Millis      the talk's 99th percentile latency divided by the time scale
     * @param predictedSuccessRatio the pool-size prediction of the profile-page experiment (8 handler threads for
     *                              both: Play 2.5's and Pekko's dispatchers both have 8 on machines of up to 8 cores)
     * @param flag                  {@code ok}, or what differs by more than 20 %
     */
    public record PekkoRow(String endpoint, double ratePerSecond, double articleSuccessRatio, double articleP50Millis,
                           double articleP99Millis, double predictedSuccessRatio, Side emulated, Side pekkoHttp, String flag) {}

    private final List<ProfilePageExperiment.TalkAttack> attacks;
    private final long talkDurationNanos;

    ProfilePagePekkoExperiment() {
        this(ProfilePageExperiment.TALK.stream().filter(t -> t.profile().equals("play-2.5")).toList(),
                ProfilePageExperiment.TALK_DURATION_NANOS);
    }

    /** Some of the talk's play-2.5 attacks, with another attack length in talk time; for tests. */
    ProfilePagePekkoExperiment(List<ProfilePageExperiment.TalkAttack> attacks, long talkDurationNanos) {
        if (attacks.isEmpty()) throw new IllegalArgumentException("no attacks");
        this.attacks = List.copyOf(attacks);
        this.talkDurationNanos = talkDurationNanos;
    }

    @Override public String name() { return "profile-page-pekko"; }

    @Override public String description() {
        return "seed 001's play-2.5 attacks on Pekko HTTP " + PEKKO_HTTP_VERSION + " (Play 3's server, Pekko's default dispatcher) beside serve --profile play-2.5";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) throws Exception {
        long scale = settings.timeScale();
        int cores = settings.environment().cores();
        int commonPool = ForkJoinPool.getCommonPoolParallelism();
        List<ProfilePageExperiment.Planned> plan = ProfilePageExperiment.plan(attacks, scale, talkDurationNanos, cores);
        List<PekkoRow> rows = new ArrayList<>();
        int pekkoParallelism = 0;
        try (BackendServer backend = BackendServer.start(0)) {
            ProfilePageExperiment.warmUp(backend, scale, plan.getFirst().durationNanos(), settings.progress());
            warmUpPekko(backend, scale, settings);
            for (ProfilePageExperiment.Planned p : plan) {
                ProfilePageExperiment.Demand here = ProfilePageExperiment.demand(p.endpoint(), p.profile(), commonPool, scale);
                // each side's CPU from its measured attack's start to its end: not the server's start, warm-up or close
                var e0 = new java.util.concurrent.atomic.AtomicReference<ProcessMetrics.Snapshot>();
                AttackResult emulated;
                ProcessMetrics.Snapshot e1;
                try (BlocklabServer server = BlocklabServer.start(ProfilePageExperiment.serverSettings(p.profile(), scale, backend))) {
                    emulated = ProfilePageExperiment.warmAndAttack(p, server.uri(), here, "play-2.5 " + p.label(), settings.progress(),
                            AttackListener.atMeasuredStart(() -> e0.set(ProcessMetrics.snapshot())));
                    e1 = ProcessMetrics.snapshot();
                }
                settle(p);
                var p0 = new java.util.concurrent.atomic.AtomicReference<ProcessMetrics.Snapshot>();
                AttackResult real;
                ProcessMetrics.Snapshot p1;
                try (PekkoHttpServer server = PekkoHttpServer.start("127.0.0.1", 0, backend.uri(), dev.blocklab.Defaults.SEED, scale)) {
                    pekkoParallelism = server.dispatcherParallelism();
                    real = ProfilePageExperiment.warmAndAttack(p, server.uri(), here, "pekko-http " + p.endpoint(), settings.progress(),
                            AttackListener.atMeasuredStart(() -> p0.set(ProcessMetrics.snapshot())));
                    p1 = ProcessMetrics.snapshot();
                }
                settle(p);
                double predicted = PoolQueuePrediction.predict(here.threads(), here.jobNanos(), p.ratePerSecond(),
                        p.durationNanos(), p.timeoutNanos()).successRatio();
                PekkoRow row = new PekkoRow(p.endpoint(), p.ratePerSecond(), p.talk().articleSuccessRatio(),
                        p.talk().articleP50Millis() / scale, p.talk().articleP99Millis() / scale, predicted,
                        Side.of(p.profile().name() + " (Vert.x)", emulated, e0.get(), e1), Side.of("pekko-http", real, p0.get(), p1), flag(emulated, real));
                settings.rowSink().accept(row);
                rows.add(row);
            }
        }
        return new ExperimentResult(name(), description(), settings.scaleLabel(), settings.environment(), rows,
                List.of(table(rows)), notes(settings, pekkoParallelism, commonPool));
    }

    /** How long the discarded warm-up of Pekko HTTP runs, at {@link #WARM_UP_RATE_PER_SECOND}. */
    static final long WARM_UP_NANOS = 3_000_000_000L;
    static final double WARM_UP_RATE_PER_SECOND = 200;

    /**
     * Pekko HTTP, its streams and Scala's collections are compiled by the JIT on first use: cold, a server answers
     * its first seconds of requests late (measured: 7 % success at 100/s in a fresh JVM against 100 % warm). The
     * per-row warm-up (half an attack) is too short for that, so one discarded attack on a throw-away server first.
     */
    private static void warmUpPekko(BackendServer backend, long scale, ExperimentSettings settings) {
        try (PekkoHttpServer server = PekkoHttpServer.start("127.0.0.1", 0, backend.uri(), dev.blocklab.Defaults.SEED, scale)) {
            AttackSettings attack = AttackSettings.of(List.of(Target.get(server.uri() + "/async-non-blocking")),
                    new Arrival.Open(new Pacer.Constant(WARM_UP_RATE_PER_SECOND), WARM_UP_NANOS))
                    .withTimeoutNanos(ProfilePageExperiment.TALK_TIMEOUT_NANOS / scale).withWarmupNanos(0); // this is the warm-up
            Attack.run(attack, line -> settings.progress().update("pekko-http warm-up (discarded) " + line));
        }
    }

    /** A closed server's async-blocking calls already sleeping in the JVM-wide common pool finish before the next. */
    private static void settle(ProfilePageExperiment.Planned p) {
        ForkJoinPool.commonPool().awaitQuiescence(p.timeoutNanos() + 1_000_000_000L, TimeUnit.NANOSECONDS);
    }

    /** {@code ok}, or which of success ratio and median latency differ by more than {@link #FLAG_RELATIVE}. */
    static String flag(AttackResult emulated, AttackResult real) {
        List<String> over = new ArrayList<>();
        double a = emulated.successRatio(), b = real.successRatio();
        if (Math.abs(a - b) > FLAG_RELATIVE * Math.max(a, b) && Math.abs(a - b) > FLAG_MIN_POINTS) over.add("success ratio");
        double p50a = emulated.latencyMillis().p50(), p50b = real.latencyMillis().p50();
        if (Math.min(p50a, p50b) > 0 && Math.max(p50a, p50b) / Math.min(p50a, p50b) > 1 + FLAG_RELATIVE) over.add("p50");
        return over.isEmpty() ? "ok" : "> 20 %: " + String.join(", ", over);
    }

    static Table table(List<PekkoRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        for (PekkoRow r : rows) {
            cells.add(List.of(r.endpoint(), ProfilePageExperiment.rate(r.ratePerSecond()), pct(r.articleSuccessRatio()),
                    pct(r.predictedSuccessRatio()), pct(r.emulated().successRatio()), pct(r.pekkoHttp().successRatio()),
                    ms(r.articleP50Millis()), ms(r.emulated().latencyMillis().p50()), ms(r.pekkoHttp().latencyMillis().p50()),
                    ms(r.articleP99Millis()), ms(r.emulated().latencyMillis().p99()), ms(r.pekkoHttp().latencyMillis().p99()),
                    r.emulated().requests() + " / " + r.pekkoHttp().requests(),
                    String.format(Locale.ROOT, "%.2f / %.2f", r.emulated().cpuMillisPerRequest(), r.pekkoHttp().cpuMillisPerRequest()), r.flag()));
        }
        return new Table("The talk's attacks: play-2.5 emulated on Vert.x beside Pekko HTTP (latency from the intended send time)",
                // the talk's latencies named as the servers' ("p50 ms talk", not "talk p50 ms", which would rank as an essential
                // article column): a 120-column grid would keep them and drop the servers' p99s; every row's record shows all
                List.of("endpoint", "rate", "talk %", "predicted %", "play-2.5 %", "pekko-http %", "p50 ms talk", "p50 ms play-2.5",
                        "p50 ms pekko", "p99 ms talk", "p99 ms play-2.5", "p99 ms pekko", "requests (e / p)", "cpu ms/req (e / p)", "flag"), cells);
    }

    private static List<String> notes(ExperimentSettings settings, int pekkoParallelism, int commonPool) {
        return List.of(
                "Real stack: Pekko HTTP " + PEKKO_HTTP_VERSION + " on Pekko 1.2.1 (what Play 3 serves with), routing DSL, on Pekko's default dispatcher as shipped: "
                        + "fork-join, clamp(cores x 1.0, 8, 64) = " + pekkoParallelism + " threads here, FIFO task peeking. Play 2.5's dispatcher (the emulation): clamp(cores x 1.0, 8, 24) = 8, LIFO. "
                        + "Both have 8 threads on machines of up to 8 cores, so sync-blocking's capacity is 8 requests a second (at real time) on both.",
                "Same endpoint code on both (the talk's three styles); the common pool (" + commonPool + (commonPool == 1 ? " thread here)" : " threads here)") + " serves async-blocking's calls on both. Both servers call one backend server over HTTP (blocking socket reads, or the asynchronous client).",
                "Where they differ by construction: Pekko runs its HTTP streams (parsing, writing responses) on the same dispatcher the blocking route holds, so a held dispatcher also stalls reading new requests, "
                        + "as in Play on Pekko/Akka HTTP; the emulation parses on Vert.x event loops and queues handlers in a bounded queue (10,000, 503 past it). Pekko HTTP accepts at most 1,024 connections (max-connections) and times out requests after 20 s.",
                "Each row: a fresh server of each kind in this JVM on 127.0.0.1, warmed (discarded) as in profile-page, then attacked at the same rate (Pekko HTTP is first warmed once, 3 s at 200/s on a throw-away server, as it compiles slowly cold); latency from each request's intended send time, timeout from the actual send.",
                "cpu ms/req: the whole process's CPU (getrusage) from each side's measured attack's start to its end (not its server's start, warm-up or close), over the attack's requests; server, attacker and backend share the process, so compare the two sides, not the absolute figure.",
                "A row is flagged when the success ratios differ by more than 20 % (and 5 points) or the medians by more than 20 %; docs/frameworks.md traces each flagged row.",
                "'p50 ms talk' and 'p99 ms talk' are the talk's vegeta percentiles on Play 2.5, divided by the time scale as profile-page's; "
                        + "vegeta counts from the actual send, both sides here from the intended send time.",
                "Time scale: " + settings.scaleLabel() + " (rates multiplied, times divided, as profile-page).");
    }

    private static String pct(double ratio) { return String.format(Locale.ROOT, "%.2f", 100 * ratio); }

    private static String ms(double millis) { return String.format(Locale.ROOT, millis >= 100 ? "%,.0f" : "%.1f", millis); }
}
