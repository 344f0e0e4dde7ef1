package dev.blocklab.experiment;

import dev.blocklab.result.AttackResult;
import dev.blocklab.attack.Attack;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.attack.Target;
import dev.blocklab.backend.BackendServer;
import dev.blocklab.load.Pacer;
import dev.blocklab.driver.Progress;
import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.Table;
import dev.blocklab.server.Admission;
import dev.blocklab.server.BlocklabServer;
import dev.blocklab.server.ServerProfile;
import dev.blocklab.server.ServerSettings;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Arrival;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The Play talk's load tests (seed 001) against {@code blocklab serve}, over real sockets: this experiment starts
 * a latency-simulating backend and, for each row, a fresh server on 127.0.0.1 that calls it over HTTP, then
 * attacks the server with the open-loop load generator. Each row is printed beside the talk's figure and beside a
 * prediction from pool sizes ({@link PoolQueuePrediction}).
 *
 * <p>Scaling: every time (call delays, timeout, attack duration) is divided by the time scale and every rate
 * multiplied by it, so each load-to-capacity and timeout-to-service ratio is the talk's. Where the scaled rate
 * would pass {@link #MAX_RATE_PER_SECOND}, the rate stays there and a {@code threads:N} pool is divided by the
 * same factor instead, which keeps the ratio too.
 */
public final class ProfilePageExperiment implements Experiment {
    /** The talk's attack length (vegeta {@code -duration=10s}). */
    static final long TALK_DURATION_NANOS = 10_000_000_000L;
    /** The talk's client timeout (vegeta {@code -timeout=3s}). */
    static final long TALK_TIMEOUT_NANOS = 3_000_000_000L;
    /** The talk's machine: 4 cores, 8 hardware threads. */
    static final int TALK_HARDWARE_THREADS = 8;
    /**
     * The highest rate a row asks for: the attacker and the server share this JVM and, here, two cores; docs/attack.md
     * measured the attacker alone keeping up to about 4,000/s, and the server needs its share.
     */
    static final double MAX_RATE_PER_SECOND = 1_000;

    /**
     * One line of the talk's results: its vegeta report's success ratio and latency percentiles.
     *
     * @param articleP50Millis the talk's median latency, in ms at real time
     * @param articleP99Millis the talk's 99th percentile latency, in ms at real time
     */
    record TalkAttack(String endpoint, String profile, double ratePerSecond, double articleSuccessRatio,
                      double articleP50Millis, double articleP99Millis) {}

    static final List<TalkAttack> TALK = List.of(
            new TalkAttack("/sync-blocking", "play-2.5", 10, 0.65, 2_309.4, 3_003.2),
            new TalkAttack("/async-blocking", "play-2.5", 10, 0.11, 3_002.8, 3_004.0),
            new TalkAttack("/async-non-blocking", "play-2.5", 10, 1.00, 515.7, 517.7),
            new TalkAttack("/async-non-blocking", "play-2.5", 1000, 1.00, 515.9, 522.0),
            new TalkAttack("/sync-blocking", "threads:1000", 1000, 0.9997, 1_011.8, 1_538.3));

    /**
     * One attack as measured.
     *
     * @param endpoint                  the path attacked
     * @param profile                   the server profile it ran under (a scaled pool in quick runs, see notes)
     * @param ratePerSecond             the open-loop rate asked for
     * @param durationSeconds           how long requests were sent
     * @param timeoutMillis             the client's timeout, from each request's actual send
     * @param requests                  requests sent
     * @param successes                 responses with a status in [200, 400)
     * @param successRatio              successes / requests, a fraction
     * @param latencyMillis             from each request's intended send time to its response or error (timeouts
     *                                  counted at their elapsed time)
     * @param statusCodes               count per status, 0 for requests without a response (timeouts)
     * @param fellBehind                the attacker could not keep its schedule (see {@link AttackResult#fellBehind()})
     * @param articleSuccessRatio       the talk's figure, a fraction
     * @param articleP50Millis          the talk's median latency divided by the time scale, beside {@code latencyMillis}
     * @param articleP99Millis          the talk's 99th percentile latency divided by the time scale
     * @param talkLoad                  the talk's profile and rate for this row
     * @param predictedSuccessRatio     {@link PoolQueuePrediction} with this machine's pool sizes and this row's
     *                                  rate, duration and timeout
     * @param predictedP50Millis        the same model's median latency
     * @param predictedTalkMachineRatio the same model with the talk's machine (8 hardware threads) and real time
     * @param why                       the prediction in words
     * @param deviation                 where the measurement is over 5 points below the prediction, the likely
     *                                  cause with the per-request hold time that would explain it; empty otherwise
     */
    public record ProfilePageRow(String endpoint, String profile, double ratePerSecond, double durationSeconds,
                                 double timeoutMillis, long requests, long successes, double successRatio,
                                 LatencyMillis latencyMillis, SortedMap<Integer, Long> statusCodes, boolean fellBehind,
                                 double articleSuccessRatio, double articleP50Millis, double articleP99Millis,
                                 String talkLoad, double predictedSuccessRatio,
                                 double predictedP50Millis, double predictedTalkMachineRatio, String why,
                                 String deviation) {}

    /** A row's server-side demand: how many threads serve it and what each request holds them for. */
    public record Demand(int threads, List<Long> jobNanos, String pool) {}

    private final List<TalkAttack> attacks;
    private final long talkDurationNanos;

    ProfilePageExperiment() { this(TALK, TALK_DURATION_NANOS); }

    /**
     * Some of the talk's attacks, with another attack length in talk time (divided by the time scale like
     * everything else); for tests.
     */
    ProfilePageExperiment(List<TalkAttack> attacks, long talkDurationNanos) {
        if (attacks.isEmpty()) throw new IllegalArgumentException("no attacks");
        if (talkDurationNanos <= 0) throw new IllegalArgumentException("duration must be positive");
        this.attacks = List.copyOf(attacks);
        this.talkDurationNanos = talkDurationNanos;
    }

    @Override public String name() { return "profile-page"; }

    @Override public String description() {
        return "seed 001's load tests over real sockets: the three endpoints under play-2.5 at 10/s, async-non-blocking at 1000/s, "
                + "sync-blocking on 1000 threads at 1000/s, beside the talk's success ratios and a prediction from pool sizes";
    }

    /** One attack of the plan, already scaled. */
    record Planned(TalkAttack talk, String endpoint, ServerProfile profile, double ratePerSecond, long durationNanos,
                   long timeoutNanos) {
        String label() {
            return endpoint + " " + profile.name() + " " + rate(ratePerSecond);
        }
    }

    /** The talk's attacks at {@code timeScale}: times divided, rates multiplied, capped by pools (see class doc). */
    static List<Planned> plan(List<TalkAttack> attacks, long timeScale, long talkDurationNanos, int cores) {
        List<Planned> planned = new ArrayList<>();
        for (TalkAttack t : attacks) {
            double rate = t.ratePerSecond() * timeScale;
            ServerProfile profile = ServerProfile.parse(t.profile(), cores);
            if (rate > MAX_RATE_PER_SECOND) {
                double factor = rate / MAX_RATE_PER_SECOND;
                rate = MAX_RATE_PER_SECOND;
                if (profile instanceof ServerProfile.Threads threads)
                    profile = new ServerProfile.Threads((int) Math.max(1, Math.round(threads.threads() / factor)));
            }
            planned.add(new Planned(t, t.endpoint(), profile, rate, talkDurationNanos / timeScale, TALK_TIMEOUT_NANOS / timeScale));
        }
        return planned;
    }

    /** The threads an endpoint holds under a profile, and for how long per request; delays divided by {@code timeScale}. */
    public static Demand demand(String endpoint, ServerProfile profile, int commonPoolThreads, long timeScale) {
        List<Long> calls = BuiltInWorkloads.profilePage().graph().steps().stream()
                .filter(s -> s instanceof Step.Call).map(s -> ((Step.Call) s).latency().expectedNanos() / timeScale).toList();
        long total = calls.stream().mapToLong(Long::longValue).sum();
        int handlerThreads = profile.threadsHeld() == ServerProfile.NO_POOL ? PoolQueuePrediction.NO_THREAD_HELD : profile.threadsHeld();
        return switch (endpoint) {
            case "/sync-blocking" -> new Demand(handlerThreads, List.of(total), profile.name() + " handler threads");
            case "/async-blocking" -> new Demand(Math.max(1, commonPoolThreads), calls, "common pool threads");
            case "/async-non-blocking" -> new Demand(PoolQueuePrediction.NO_THREAD_HELD, calls, "no thread held");
            default -> throw new IllegalArgumentException("unknown endpoint " + endpoint);
        };
    }

    @Override public ExperimentResult run(ExperimentSettings settings) throws Exception {
        long scale = settings.timeScale();
        int cores = settings.environment().cores();
        int commonPool = ForkJoinPool.getCommonPoolParallelism();
        List<Planned> plan = plan(attacks, scale, talkDurationNanos, cores);
        List<ProfilePageRow> rows = new ArrayList<>();
        try (BackendServer backend = BackendServer.start(0)) {
            warmUp(backend, scale, plan.getFirst().durationNanos(), settings.progress());
            for (Planned p : plan) {
                ProfilePageRow row = measure(p, backend, scale, commonPool, cores, settings.progress());
                settings.rowSink().accept(row);
                rows.add(row);
            }
        }
        return new ExperimentResult(name(), description(plan, scale), settings.scaleLabel(), settings.environment(), rows,
                tables(rows), notes(settings, commonPool, plan, rows), charts(rows, settings.scaleLabel()));
    }

    /**
     * The description of what this run attacked: at a time scale other than 1 the rates and pools that ran
     * (the quick scale's 100/s and threads:100), then the talk's setup they stand for; the talk's alone at 1.
     */
    static String description(List<Planned> plan, long timeScale) {
        String ran = setup(plan.stream().map(p -> new String[] {p.endpoint(), p.profile().name(), rate(p.ratePerSecond())}).toList());
        String talk = setup(plan.stream().map(p -> new String[] {p.talk().endpoint(), p.talk().profile(), rate(p.talk().ratePerSecond())}).toList());
        return "seed 001's load tests over real sockets: " + ran
                + (ran.equals(talk) ? "" : " (the talk's " + talk + ", with delays / " + timeScale + ")")
                + ", beside the talk's success ratios and a prediction from pool sizes";
    }

    /** {@code /a, /b under play-2.5 at 10/s; /a under threads:1000 at 1000/s}: endpoints grouped by profile and rate, in order. */
    private static String setup(List<String[]> attacks) {
        java.util.Map<String, List<String>> byLoad = new java.util.LinkedHashMap<>();
        for (String[] a : attacks) byLoad.computeIfAbsent(a[1] + " at " + a[2], k -> new ArrayList<>()).add(a[0]);
        return String.join("; ", byLoad.entrySet().stream().map(e -> String.join(", ", e.getValue()) + " under " + e.getKey()).toList());
    }

    /**
     * Warms the JIT, the client and the server's non-blocking path on a throw-away server (results discarded),
     * so the first measured row does not pay for compilation.
     */
    static void warmUp(BackendServer backend, long scale, long durationNanos, Progress progress) {
        long warmNanos = warmUpNanos(durationNanos);
        try (BlocklabServer server = BlocklabServer.start(serverSettings(new ServerProfile.Virtual(), scale, backend))) {
            AttackSettings attack = AttackSettings.of(List.of(Target.get(server.uri() + "/async-non-blocking")),
                    new Arrival.Open(new Pacer.Constant(200), warmNanos)).withTimeoutNanos(TALK_TIMEOUT_NANOS / scale)
                    .withWarmupNanos(0);
            Attack.run(attack, line -> progress.update("profile-page warm-up (discarded) " + line));
        }
    }

    /** Half the attack, at least 0.1 s, at most 2 s. */
    static long warmUpNanos(long attackNanos) { return Math.clamp(attackNanos / 2, 100_000_000L, 2_000_000_000L); }

    static ServerSettings serverSettings(ServerProfile profile, long scale, BackendServer backend) {
        // the talk's Play 2.5 had only a fixed queue: no shedding by queueing delay
        return ServerSettings.of(0, profile).withTimeScale(scale).withBackend(backend.uri()).withLog(line -> {})
                .withAdmission(Admission.FIXED);
    }

    private ProfilePageRow measure(Planned p, BackendServer backend, long scale, int commonPool, int cores, Progress progress) {
        Demand here = demand(p.endpoint(), p.profile(), commonPool, scale);
        AttackResult r;
        try (BlocklabServer server = BlocklabServer.start(serverSettings(p.profile(), scale, backend))) {
            r = warmAndAttack(p, server.uri(), here, "profile-page " + p.label(), progress);
        }
        // a closed server's async-blocking calls already sleeping in the JVM-wide common pool finish first
        ForkJoinPool.commonPool().awaitQuiescence(p.timeoutNanos() + 1_000_000_000L, TimeUnit.NANOSECONDS);

        PoolQueuePrediction.Outcome predicted = PoolQueuePrediction.predict(here.threads(), here.jobNanos(),
                p.ratePerSecond(), p.durationNanos(), p.timeoutNanos());
        PoolQueuePrediction.Outcome talkPredicted = talkPrediction(p.talk());
        return new ProfilePageRow(p.endpoint(), p.profile().name(), p.ratePerSecond(), p.durationNanos() / 1e9,
                p.timeoutNanos() / 1e6, r.requests(), r.successes(), r.successRatio(), r.latencyMillis(), r.statusCodes(),
                r.fellBehind(), p.talk().articleSuccessRatio(), p.talk().articleP50Millis() / scale,
                p.talk().articleP99Millis() / scale, p.talk().profile() + " at " + rate(p.talk().ratePerSecond()),
                predicted.successRatio(), predicted.medianLatencyNanos() / 1e6, talkPredicted.successRatio(),
                why(here, p, predicted, talkPredicted), deviation(here, p, r, predicted, cores));
    }

    /** The attack's demand on the talk's machine: its profile on 8 hardware threads, a common pool of 7, real time. */
    static Demand talkDemand(TalkAttack t) {
        return demand(t.endpoint(), ServerProfile.parse(t.profile(), TALK_HARDWARE_THREADS), TALK_HARDWARE_THREADS - 1, 1);
    }

    /** {@link PoolQueuePrediction} for the talk's attack on the talk's machine: its rate, 10 s and 3 s timeout. */
    static PoolQueuePrediction.Outcome talkPrediction(TalkAttack t) {
        Demand d = talkDemand(t);
        return PoolQueuePrediction.predict(d.threads(), d.jobNanos(), t.ratePerSecond(), TALK_DURATION_NANOS, TALK_TIMEOUT_NANOS);
    }

    /**
     * Where the talk's own figure is over {@link #DEVIATION_TOLERANCE} below what its pool sizes predict on its
     * machine, the hold time per request that fits it ({@link PoolQueuePrediction#holdFactorFitting}); empty otherwise.
     */
    static String talkGap(TalkAttack t) {
        Demand d = talkDemand(t);
        double predicted = talkPrediction(t).successRatio();
        if (d.threads() == PoolQueuePrediction.NO_THREAD_HELD || t.articleSuccessRatio() >= predicted - DEVIATION_TOLERANCE) return "";
        double factor = PoolQueuePrediction.holdFactorFitting(t.articleSuccessRatio(), d.threads(), d.jobNanos(),
                t.ratePerSecond(), TALK_DURATION_NANOS, TALK_TIMEOUT_NANOS);
        long holdNanos = d.jobNanos().stream().mapToLong(Long::longValue).sum();
        return String.format(Locale.ROOT, "Talk, %s %s at %s: its %s %% is below the %s %% its pool sizes give on its machine "
                        + "(%d %s); the model fits it when each request held its thread%s %.2f x its calls (%s ms instead of %s ms).",
                t.endpoint(), t.profile(), rate(t.ratePerSecond()), pct(t.articleSuccessRatio()), pct(predicted), d.threads(),
                d.pool(), d.threads() == 1 ? "" : "s", factor, ms(holdNanos * factor), ms(holdNanos));
    }

    /**
     * Warms the server at {@code server} as the row needs, then runs the row's attack on its endpoint; the caller
     * starts and closes the server.
     */
    static AttackResult warmAndAttack(Planned p, URI server, Demand here, String label, Progress progress) {
        return warmAndAttack(p, server, here, label, progress, dev.blocklab.attack.AttackListener.NONE);
    }

    /** As above, {@code listener} told of the measured attack (not of its warm-up). */
    static AttackResult warmAndAttack(Planned p, URI server, Demand here, String label, Progress progress,
                                      dev.blocklab.attack.AttackListener listener) {
        Target target = Target.get(server + p.endpoint());
        AttackSettings attack = AttackSettings.of(List.of(target),
                new Arrival.Open(new Pacer.Constant(p.ratePerSecond()), p.durationNanos())).withTimeoutNanos(p.timeoutNanos())
                .withWarmupNanos(0); // each row chooses its own warm-up below
        long warmNanos = warmUpNanos(p.durationNanos());
        if (here.threads() == PoolQueuePrediction.NO_THREAD_HELD) {
            // nothing queues behind a non-blocking warm-up: warm at the row's rate on its own connections
            attack = attack.withWarmupNanos(warmNanos);
        } else {
            // a blocking row is warmed at half its pool's capacity, where no queue builds, and only once every
            // answer is in does the measured attack start: threads, backend connections and JIT are warm, the
            // queue is empty (its attacker connections are new)
            double halfCapacity = here.threads() * 1e9 / here.jobNanos().stream().mapToLong(Long::longValue).sum() / 2;
            Attack.run(AttackSettings.of(List.of(target), new Arrival.Open(new Pacer.Constant(halfCapacity), warmNanos))
                            .withTimeoutNanos(p.timeoutNanos()).withWarmupNanos(0),
                    line -> progress.update(label + ": warm-up at " + rate(halfCapacity) + " (discarded) " + line));
        }
        return new Attack(attack).run(line -> progress.update(label + ": " + line), listener);
    }

    /** Points below the prediction past which a row explains itself. */
    static final double DEVIATION_TOLERANCE = 0.05;

    /**
     * Why a row fell short of its prediction: for a pool, the hold time per request that would explain the
     * measured ratio ({@link PoolQueuePrediction#holdFactorFitting}); without one, the machine's own latency.
     */
    static String deviation(Demand d, Planned p, AttackResult r, PoolQueuePrediction.Outcome predicted, int cores) {
        if (r.requests() == 0 || r.successRatio() >= predicted.successRatio() - DEVIATION_TOLERANCE) return "";
        String head = String.format(Locale.ROOT, "%s: measured %s %% against predicted %s %%: ", p.label(),
                pct(r.successRatio()), pct(predicted.successRatio()));
        if (d.threads() == PoolQueuePrediction.NO_THREAD_HELD)
            return head + String.format(Locale.ROOT, "no pool limits it, so the machine's own latency did (p50 %s ms, p99 %s ms against "
                    + "a %s ms critical path and a %s ms timeout: attacker, server and backend share the cores%s)",
                    ms(r.latencyMillis().p50() * 1e6), ms(r.latencyMillis().p99() * 1e6), ms(predicted.medianLatencyNanos()),
                    ms(p.timeoutNanos()), r.fellBehind() ? ", and the attacker fell behind its schedule" : "");
        double factor = PoolQueuePrediction.holdFactorFitting(r.successRatio(), d.threads(), d.jobNanos(), p.ratePerSecond(),
                p.durationNanos(), p.timeoutNanos());
        long holdNanos = d.jobNanos().stream().mapToLong(Long::longValue).sum();
        return head + String.format(Locale.ROOT, "the model fits it when each request holds its thread%s %.2f x its calls (%s ms "
                + "instead of %s ms, capacity %s/s instead of %s/s): the per-request cost the pool sizes leave out (socket round "
                + "trips, hand-offs, waiting for one of %d cores)%s", d.threads() == 1 ? "" : "s", factor,
                ms(holdNanos * factor), ms(holdNanos), num(d.threads() * 1e9 / (holdNanos * factor)), num(d.threads() * 1e9 / holdNanos),
                cores,
                r.fellBehind() ? "; the attacker also fell behind its schedule" : "");
    }

    /** The prediction in words: capacity against load, and what follows for the queue and the timeout. */
    static String why(Demand d, Planned p, PoolQueuePrediction.Outcome predicted, PoolQueuePrediction.Outcome talk) {
        long holdNanos = d.jobNanos().stream().mapToLong(Long::longValue).sum();
        long longestNanos = d.jobNanos().stream().mapToLong(Long::longValue).max().orElse(0);
        String tail = String.format(Locale.ROOT, "; predicted %s %% here, %s %% on the talk's %d hardware threads",
                pct(predicted.successRatio()), pct(talk.successRatio()), TALK_HARDWARE_THREADS);
        if (d.threads() == PoolQueuePrediction.NO_THREAD_HELD)
            return String.format(Locale.ROOT, "no thread waits: each call is a pending timer or socket, so latency = the longest call, "
                    + "%s ms, within the %s ms timeout at any rate the machine can send (predicted p50 %s ms)",
                    ms(longestNanos), ms(p.timeoutNanos()), ms(predicted.medianLatencyNanos())) + tail;
        double capacity = d.threads() * 1e9 / holdNanos;
        double load = p.ratePerSecond() / capacity;
        String what = d.pool().equals("common pool threads")
                ? String.format(Locale.ROOT, "the common pool has %d thread%s (cores - 1), each call holds one for %s-%s ms: %s ms of thread time per request",
                d.threads(), d.threads() == 1 ? "" : "s", ms(d.jobNanos().stream().mapToLong(Long::longValue).min().orElse(0)),
                ms(longestNanos), ms(holdNanos))
                : String.format(Locale.ROOT, "%d %s each holding a request for %s ms", d.threads(), d.pool(), ms(holdNanos));
        long serviceNanos = d.jobNanos().size() <= d.threads() ? longestNanos : holdNanos;   // jobs in parallel or in turn
        String queue = load > 1
                ? String.format(Locale.ROOT, ", so the wait grows %s ms per second of attack and requests fail once it passes "
                + "timeout - service = %s ms", ms((load - 1) * 1e9), ms(p.timeoutNanos() - serviceNanos))
                : load == 1 ? ": exactly at capacity, no queue builds unless a request is late" : ": no queue builds";
        return String.format(Locale.ROOT, "%s = %s/s capacity against %s (load %.2f x capacity)", what, num(capacity),
                rate(p.ratePerSecond()), load) + queue + tail;
    }

    static List<Table> tables(List<ProfilePageRow> rows) {
        List<List<String>> cells = new ArrayList<>();
        List<List<String>> whys = new ArrayList<>();
        for (ProfilePageRow r : rows) {
            cells.add(List.of(r.endpoint(), r.profile(), rate(r.ratePerSecond()),
                    pct(r.successRatio()), pct(r.articleSuccessRatio()), pct(r.predictedSuccessRatio()),
                    ms(r.latencyMillis().p50() * 1e6), ms(r.articleP50Millis() * 1e6), ms(r.latencyMillis().p99() * 1e6),
                    ms(r.articleP99Millis() * 1e6), ms(r.predictedP50Millis() * 1e6), String.valueOf(r.requests()),
                    statuses(r.statusCodes()) + (r.fellBehind() ? " (attacker fell behind)" : "")));
            whys.add(List.of(r.endpoint() + " " + r.profile() + " " + rate(r.ratePerSecond()), r.why()));
        }
        return List.of(
                new Table("The talk's attacks: measured beside the talk and the prediction from pool sizes",
                        // success beside the talk's and the prediction first: what a 120-column terminal keeps
                        List.of("endpoint", "profile", "rate", "success %", "talk %", "predicted %",
                                "p50 ms", "talk p50 ms", "p99 ms", "talk p99 ms", "predicted p50 ms", "sent", "statuses"), cells),
                new Table("Why: the prediction from pool sizes", List.of("row", "why"), whys));
    }

    private static List<String> notes(ExperimentSettings settings, int commonPool, List<Planned> plan, List<ProfilePageRow> rows) {
        int cores = settings.environment().cores();
        List<String> notes = new ArrayList<>();
        for (ProfilePageRow r : rows) if (!r.deviation().isEmpty()) notes.add(r.deviation());
        for (Planned p : plan) {
            String gap = talkGap(p.talk());
            if (!gap.isEmpty()) notes.add(gap);
        }
        notes.add("Latency counts from each request's intended send time (open model: a queue in the server or the attacker "
                + "cannot hide a wait); the timeout counts from the actual send, as vegeta's; success = a status in [200, 400). "
                + "Requests that timed out appear as status 0 and in the latencies at their elapsed time. 'talk p50 ms' and "
                + "'talk p99 ms' are the talk's vegeta percentiles divided by the time scale; vegeta counts from the actual send.");
        notes.add("Setup: a blocklab backend and, per row, a fresh blocklab server (closed between rows, so no backlog leaks), both in "
                + "this JVM on 127.0.0.1 with port 0; the server calls the backend over HTTP (its --backend setting): blocking "
                + "endpoints sit in blocking socket reads, async-non-blocking uses the asynchronous HTTP/2 client. The talk's code "
                + "slept instead; a thread in a socket read is held just as a sleeping one. Each row is warmed first, discarded: "
                + "non-blocking rows at their rate on their own connections, blocking rows at half their pool's capacity (no "
                + "queue builds) until every answer is in. 'attacker fell behind': the attacker's own delay at p99 exceeded its "
                + "allowance, 5 % of the latency p99 measured (at least 1 ms), or over 0.1 % of the scheduled requests were never sent.");
        notes.add("Prediction: a FIFO pool of N threads, each request queueing its thread-holding jobs on arrival, requests sent "
                + "at n / rate, success when done before the timeout; timed-out requests still take their threads. Exact for "
                + "deterministic arrivals and delays; it knows nothing of the machine's own costs.");
        notes.add("Cores: the talk's machine had 4 cores / 8 hardware threads, this one " + cores + ". Play 2.5's dispatcher is "
                + "clamp(cores x 1.0, 8, 24) = 8 threads on both, so sync-blocking's capacity (8/s) is the talk's.");
        notes.add("Common pool: cores - 1 = " + (TALK_HARDWARE_THREADS - 1) + " threads in the talk, " + commonPool
                + " here, so async-blocking serves " + (TALK_HARDWARE_THREADS - 1) + " requests/s there and " + commonPool
                + " here: expect it below the talk's 11 %. The same model on the talk's machine predicts well above 11 % (the "
                + "'on the talk's hardware threads' figure in the why table), so the talk's 11 % is lower than its pool sizes alone "
                + "explain. The talk does not say what else its machine spent time on (Java 8's fork-join pool, Akka's dispatching, "
                + "other load), so that gap is left unexplained here.");
        notes.add("JDK: Play 2.5 runs on Java 8; here JDK " + settings.environment().jdk() + ".");
        notes.add("Play vs Vert.x: the talk ran Play 2.5 (Akka HTTP, Akka's fork-join dispatcher); here Vert.x 5 event loops hand "
                + "each request to a ForkJoinPool shaped like Play's (same parallelism, asyncMode false), and 'threads:N' is a "
                + "fixed pool of N platform threads with a FIFO queue like the talk's 1000-thread dispatcher.");
        notes.add("Attacker: the talk used vegeta in its own process; here blocklab attack (its default client, on Netty) shares this JVM and the "
                + "machine's " + cores + " cores with the server and the backend.");
        if (settings.timeScale() > 1)
            notes.add("Scale: every time divided by " + settings.timeScale() + " (call delays, the 3 s timeout, the 10 s attack) "
                    + "and every rate multiplied by it, so each load-to-capacity and timeout-to-service ratio is the talk's. "
                    + "Rates above " + rate(MAX_RATE_PER_SECOND) + " stay there and a threads:N pool is divided by the same factor "
                    + "(" + plan.getLast().profile().name() + " holding 1000/" + settings.timeScale()
                    + " ms per request serves the same load as 1000 threads holding 1 s); async-non-blocking at "
                    + rate(MAX_RATE_PER_SECOND) + " holds no pool. Fixed per-request costs and machine stalls do not shrink "
                    + "with the scale, so scaled rows fail more than real-time ones. --full runs the talk's real figures.");
        return notes;
    }

    static List<Chart> charts(List<ProfilePageRow> rows, String scale) {
        List<String> categories = rows.stream().map(r -> r.endpoint().substring(1) + " " + r.profile() + " " + rate(r.ratePerSecond())).toList();
        Chart success = new Chart.BarChart("Success ratio: measured, the talk's and predicted from pool sizes",
                new Axis("endpoint, profile, rate", ""), categories, new Axis("success", "%"),
                List.of(new Bars("measured", rows.stream().map(r -> 100 * r.successRatio()).toList()),
                        new Bars("talk", rows.stream().map(r -> 100 * r.articleSuccessRatio()).toList()),
                        new Bars("predicted", rows.stream().map(r -> 100 * r.predictedSuccessRatio()).toList())),
                false, "Success = status in [200, 400) within the client's timeout (3 s / time scale), over all requests sent; "
                + "one attack per bar, a fresh server each; " + scale + ".");
        Chart latency = new Chart.BarChart("Latency p50 and p99 from the intended send time, beside the talk's",
                new Axis("endpoint, profile, rate", ""), categories, new Axis("latency", "ms"),
                List.of(new Bars("p50", rows.stream().map(r -> r.latencyMillis().p50()).toList()),
                        new Bars("talk p50", rows.stream().map(ProfilePageRow::articleP50Millis).toList()),
                        new Bars("p99", rows.stream().map(r -> r.latencyMillis().p99()).toList()),
                        new Bars("talk p99", rows.stream().map(ProfilePageRow::articleP99Millis).toList()),
                        new Bars("predicted p50", rows.stream().map(ProfilePageRow::predictedP50Millis).toList())),
                false, "HdrHistogram of response time minus intended send time, timeouts at their elapsed time; the talk's "
                + "percentiles from its vegeta reports, divided by the time scale; " + scale + ".");
        return List.of(success, latency);
    }

    private static String statuses(SortedMap<Integer, Long> codes) {
        StringBuilder b = new StringBuilder();
        codes.forEach((code, n) -> b.append(b.isEmpty() ? "" : " ").append(code).append(" x").append(n));
        return b.isEmpty() ? "-" : b.toString();
    }

    static String rate(double perSecond) { return dev.blocklab.load.Rates.number(perSecond) + "/s"; }

    private static String ms(double nanos) {
        double millis = nanos / 1e6;
        return String.format(Locale.ROOT, millis >= 100 ? "%,.0f" : "%.1f", millis);
    }

    private static String pct(double ratio) { return String.format(Locale.ROOT, "%.2f", 100 * ratio); }

    private static String num(double v) { return String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.2f", v); }
}
