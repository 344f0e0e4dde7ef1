package dev.blocklab.cli;

import dev.blocklab.Defaults;
import dev.blocklab.result.AttackResult;
import dev.blocklab.result.AttackInterval;
import dev.blocklab.report.AttackReportFormat;
import dev.blocklab.report.ResultsFile;
import dev.blocklab.attack.Attack;
import dev.blocklab.attack.AttackExperiment;
import dev.blocklab.attack.AttackTimeline;
import dev.blocklab.attack.AttackListener;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.attack.Calibration;
import dev.blocklab.attack.HitsFile;
import dev.blocklab.attack.HlogFile;
import dev.blocklab.load.Rates;
import dev.blocklab.load.Shard;
import dev.blocklab.attack.Target;
import dev.blocklab.attack.Targets;
import dev.blocklab.attack.Threshold;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.workload.Arrival;
import dev.blocklab.shard.ShardCapture;
import dev.blocklab.shard.ShardRecord;
import dev.blocklab.shard.StartAt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** {@code blocklab attack URL}: an HTTP load generator in vegeta's manner, free of coordinated omission. */
@Command(name = "attack", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
        description = {"Send HTTP requests to a URL at a fixed, ramping or stepped rate (open model) or from N users "
                + "(closed model), and report latency percentiles, throughput, status codes and errors in vegeta's layout.",
                "Latency counts from each request's intended send time, so queueing in the target or in the attacker "
                        + "is never hidden; service time counts from the actual send. Ctrl-C stops and still reports."},
        footer = {"", "Exit codes: 0 done (errors are reported, not fatal), 1 a --fail-if condition held, 2 bad input.",
                "", "Examples:",
                "  blocklab attack http://127.0.0.1:9000/async-non-blocking --rate 1000/s --duration 10s   # blocklab serve's port",
                "  blocklab attack http://127.0.0.1:9000/health --rate 100/s..5000/s --duration 30s --format json",
                "  blocklab attack http://127.0.0.1:9000/health --rate 100/s,500/s,1000/s --step 5s --duration 15s --hlog attack.hlog",
                "  blocklab attack http://127.0.0.1:9000/sync-blocking --users 50 --duration 10s",
                "  blocklab attack http://my-api:8080/api --method POST --header 'Content-Type: application/json' --body @req.json",
                "  blocklab attack http://127.0.0.1:9000/health --rate 2000/s --duration 20s --html attack.html --save attack.jsonl",
                "  blocklab attack --targets targets.txt --rate 500/s --responses hits.csv --fail-if 'p99>600ms' --fail-if 'success<99%%'",
                "  blocklab attack http://127.0.0.1:9000/health --rate 20000/s --fail-if instrument-limited --warmup 0",
                "  blocklab attack http://127.0.0.1:9000/async-non-blocking --rate 4000/s --duration 30s --workers 4",
                "  blocklab attack http://127.0.0.1:9000/health --rate 4000/s --shard 0/4 --start-at 2026-11-23T17:30:00Z --save s0.jsonl",
                "  blocklab attack --calibrate"})
final class AttackCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URL", description = "The target, e.g. http://127.0.0.1:9000/async-non-blocking (or use --targets).")
    String url;

    @Option(names = "--targets", paramLabel = "FILE", description = "Several targets, vegeta's format: 'GET http://…' lines, optional 'Name: value' header lines and an '@body-file' line, blocks separated by blank lines; sent round-robin.")
    Path targetsFile;

    @Option(names = "--rate", paramLabel = "RATE", description = "Open model: 1000/s; a linear ramp over the duration, 100/s..5000/s; or steps, 100/s,500/s,1000/s (with --step). Default: 50/s unless --users.")
    String rate;

    @Option(names = "--step", paramLabel = "D", description = "How long each step of a stepped --rate lasts, e.g. 5s (default: the duration divided equally).")
    String step;

    @Option(names = "--users", paramLabel = "N", description = "Closed model instead of --rate: N users, each sending its next request when its last one completes.")
    Integer users;

    @Option(names = "--duration", paramLabel = "D", description = "How long to send, e.g. 30s (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = "--timeout", paramLabel = "D", description = "A request without a complete response this long after its send fails (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "At most N open connections per host; further requests queue in the client, and the wait counts in latency (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--method", paramLabel = "METHOD", defaultValue = "GET", description = "HTTP method for URL (default: ${DEFAULT-VALUE}).")
    String method;

    @Option(names = {"-H", "--header"}, paramLabel = "'K: V'", description = "A request header; repeatable.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--body", paramLabel = "@FILE|TEXT", description = "Request body: the contents of FILE, or TEXT itself.")
    String body;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "text (vegeta's layout), json, or hdr (HdrHistogram percentile spectrum) (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--responses", paramLabel = "FILE", description = "Stream every response to this CSV file as it arrives.")
    Path responses;

    /** The former name of {@code --responses}, kept hidden for a release. */
    @Option(names = "--output", paramLabel = "FILE", hidden = true)
    void output(Path file) { responses = file; }

    @Option(names = "--hlog", paramLabel = "FILE", description = "Write 1-second interval latency histograms to this HdrHistogram log.")
    Path hlog;

    /** {@code --save}: one line per interval, then the whole result; {@code --html}: tables, timeline and charts. */
    @picocli.CommandLine.Mixin SharedOptions.Results results = new SharedOptions.Results();

    @Option(names = "--fail-if", paramLabel = "COND", description = "Exit 1 when COND holds, e.g. 'p99>600ms', 'success<99%%', 'errors>0', 'late>0', or 'instrument-limited' (the attacker, not the target, set the numbers; not judged, so not holding, under 500 requests or when under 1%% succeeded, unless requests went unsent); repeatable.")
    List<String> failIf = new ArrayList<>();

    @Option(names = "--client", paramLabel = "CLIENT", defaultValue = "netty", description = "HTTP client: netty (blocklab's lean HTTP/1.1 exchange on Netty), vertx (Vert.x's HTTP client) or jdk (java.net.http) (default: ${DEFAULT-VALUE}).")
    String client;

    @Option(names = "--late-threshold", paramLabel = "D", description = "A send more than D behind schedule counts as late (default: ${DEFAULT-VALUE}).")
    String lateThreshold;

    @Option(names = "--warmup", paramLabel = "D", description = "First send for D, stepping up to the starting rate, and discard those results, so a cold JVM's compiling and a client without connections do not show in the figures; 0 for none (default: 3s, or the duration if shorter).")
    String warmup;

    @Option(names = "--calibrate", description = "Measure this attacker's highest accurate rate on this machine against an in-process null target (1,000/s up to 100,000/s, 3s each after a 1s warm-up, after a discarded 6s warm-up of the JVM; a rate not accurate is tried once more), instead of attacking a URL.")
    boolean calibrate;

    @picocli.CommandLine.Mixin SharedOptions.Console console = new SharedOptions.Console();

    @Option(names = "--shard", paramLabel = "I/N", description = "Send only shard I (0-based) of N: every N-th request of the schedule from the I-th, so N shards from one --start-at send together the asked rate, ramp or steps. The shard's record (for 'blocklab report --merge') goes to --save, --hlog, or else standard output.")
    String shard;

    @Option(names = "--start-at", paramLabel = "TIME", description = "Start the measured schedule at this instant (ISO-8601 such as 2026-11-23T17:30:00Z, epoch milliseconds, or @FILE: wait for FILE to hold one); the warm-up ends then. A warm-up then sends for its first four fifths and is answered in the last. Every shard of one attack takes the same.")
    String startAt;

    @Option(names = "--workers", paramLabel = "N", description = "Run N local worker processes (child JVMs), each one --shard of this attack from a common start, and merge their results exactly when they finish; files under results/workers-<time>/.")
    Integer workers;

    @Override public Integer call() {
        if (calibrate) return calibrate();
        Flags.distinct("--save", results.save, "--html", results.html, "--hlog", hlog, "--responses", responses);
        results.checkHtml();
        if (workers != null) return new AttackWorkers(this).run();
        AttackSettings settings = settings();
        Shard sharding = shard == null ? Shard.WHOLE : Shard.parse(shard);
        // a barrier (@FILE) is awaited once the client is up: a worker marks itself ready then
        java.util.function.Supplier<Instant> start = startAt == null ? null : startAt.trim().startsWith("@")
                ? () -> StartAt.parse(startAt, Clock.systemUTC(), StartAt.BARRIER_TIMEOUT_MILLIS)
                : constant(StartAt.parse(startAt, Clock.systemUTC(), 0));
        if (sharding.count() > 1 && start == null) throw new IllegalArgumentException("--shard " + sharding + " needs --start-at, the start every shard shares");
        AttackReportFormat reportFormat = AttackReportFormat.parse(format);
        List<Threshold> thresholds = failIf.stream().map(Threshold::parse).toList();

        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        List<AttackListener> listeners = new ArrayList<>();
        Path save = results.save, html = results.html;
        Attack attack = new Attack(settings, sharding, start);
        // a given start whose schedule has ended is refused before any output file is opened (a barrier's, once read)
        if (start != null && !startAt.trim().startsWith("@")) Attack.refuseEnded(settings.schedule(), start.get(), Instant.now());
        if (responses != null) listeners.add(new HitsFile(responses));
        // a shard's log is on the common start's time base; a start never read (a barrier refused) leaves an empty log
        if (hlog != null) listeners.add(start == null ? new HlogFile(hlog) : new HlogFile(hlog, () -> attack.startedAt() != null
                ? attack.startedAt().toEpochMilli() : System.currentTimeMillis()));
        ShardCapture capture = shard == null ? null : new ShardCapture(new AttackTimeline(settings.schedule(), sharding, settings.intervalNanos()));
        AttackTimeline timeline = capture != null ? capture.timeline()
                : html != null || save != null ? new AttackTimeline(settings.schedule(), settings.intervalNanos()) : null;
        if (timeline != null) listeners.add(capture != null ? capture : timeline);
        SavedIntervals saved = save == null ? null : new SavedIntervals(new ResultsFile(save), timeline, settings.intervalNanos());
        if (saved != null) listeners.add(saved);
        ConsoleProgress progress = console.progress(err);

        CountDownLatch reported = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            attack.stop();
            try {
                reported.await(Attack.STOP_GRACE_NANOS / 1_000_000 + 15_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "attack-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        int exit = 0;
        try {
            AttackResult result = attack.run(progress, AttackListener.all(listeners));
            progress.clear();
            out.print(reportFormat.create().render(result));
            out.flush();
            // a stopped attack's timeline ends at its last send: what fell due after it was never to be sent
            if (timeline != null) saveAndDraw(result, timeline.intervals(result.stopped() ? result.attackNanos() + 1 : Long.MAX_VALUE),
                    settings.intervalNanos(), saved, err);
            if (capture != null && attack.startedAt() != null) saveShard(ShardRecord.of(sharding, attack.startedAt(), settings, result, capture), saved, out);
            else if (capture != null)   // stopped at its barrier: 'report --merge' counts it as a shard that failed
                err.println("blocklab: stopped before the common start was known: no shard record written");
            if (responses != null) console.saved(err, "responses", responses);
            if (hlog != null) console.saved(err, "interval histograms", hlog);
            for (Threshold t : thresholds) {
                var v = t.violation(result);
                if (v.isPresent()) {
                    err.println("blocklab: " + v.get());
                    exit = 1;
                }
            }
            err.flush();
        } finally {
            if (saved != null) saved.file.close();
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the hook is running and waits for the report printed above
            }
        }
        return exit;
    }

    private static java.util.function.Supplier<Instant> constant(Instant at) { return () -> at; }

    /** A shard's record: into {@code --save} and {@code --hlog}, or else on standard output after the report. */
    private void saveShard(ShardRecord record, SavedIntervals saved, PrintWriter out) {
        if (saved != null) saved.file.write(ShardRecord.KIND, record);
        if (hlog != null) record.appendTo(hlog);
        if (saved == null && hlog == null) {
            out.println(record.toJsonLine());
            out.flush();
        }
    }

    /** The options {@code --calibrate} reads; any other is refused with it. */
    private static final java.util.Set<String> CALIBRATE_OPTIONS = java.util.Set.of("--calibrate", "--max-connections", "--client", "--quiet", "--verbose");

    /** {@code --calibrate}: the ladder against an in-process null target, printed as a table. */
    private int calibrate() {
        if (url != null || targetsFile != null) throw new IllegalArgumentException("--calibrate attacks its own null target: give no URL or --targets");
        // the ladder's rates, steps and outputs are its own: an option of an attack would be ignored without a word
        for (var option : spec.commandLine().getParseResult().matchedOptions())
            if (!CALIBRATE_OPTIONS.contains(option.longestName()))
                throw new IllegalArgumentException("--calibrate runs its own ladder of rates (1,000/s up to 100,000/s, 3s each) and prints a table: "
                        + option.longestName() + " is for an attack of a URL (with --calibrate: " + String.join(", ", CALIBRATE_OPTIONS.stream()
                        .filter(o -> !o.equals("--calibrate")).sorted().toList()) + ")");
        Flags.positive("--max-connections", maxConnections);
        ConsoleProgress progress = console.progress(spec.commandLine().getErr());
        Calibration c = Calibration.run(client(), maxConnections, Calibration.DEFAULT_STEP_NANOS,
                Calibration.DEFAULT_STEP_WARMUP_NANOS, progress);
        progress.clear();
        spec.commandLine().getOut().print(c.render());
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** Writes {@code --save} and {@code --html}. */
    private void saveAndDraw(AttackResult result, List<AttackInterval> intervals, long intervalNanos,
                             SavedIntervals saved, PrintWriter err) {
        ExperimentResult experiment = AttackExperiment.of(result, intervals, intervalNanos, Environment.current());
        if (result.stopped()) experiment = stopped(experiment, result.stopNote());
        if (saved != null) {
            saved.finish(intervals);
            saved.file.writeResult(experiment);
            saved.file.writePageTitle("attack " + experiment.description());
            console.saved(err, saved.file);
        }
        if (results.html != null) {
            ReportCommand.writeHtml(results.html, "attack " + experiment.description(), List.of(experiment), ReportCommand.now());
            console.saved(err, "HTML report", results.html);
        }
    }

    /**
     * A stopped attack's result says so where the page and a later {@code report} show it first, its description
     * (the page's title and heading), as the text report's "Target: ..." does with the same {@code note}
     * ({@link AttackResult#stopNote}): the description states the asked duration, which the attack did not run.
     */
    static ExperimentResult stopped(ExperimentResult e, String note) {
        return new ExperimentResult(e.experiment(), e.description() + note, e.scale(), e.environment(),
                e.rows(), e.tables(), e.notes(), e.charts());
    }

    /**
     * Streams {@code --save} while the attack runs: the file is created at the start, and a line of kind
     * {@value #LIVE} is written (and flushed) for each interval once it has ended, so a killed attack leaves
     * every interval but its last. In a live line, completions, errors and latencies are final (they are cut by
     * completion time); {@code sent} counts only the requests sent in the interval that had completed by then.
     * At the end the exact timeline follows as {@code attack-interval} lines, then the whole result.
     */
    private static final class SavedIntervals implements AttackListener {
        final ResultsFile file;
        static final String LIVE = "attack-interval-live";
        private final AttackTimeline timeline;
        private final long intervalNanos;
        private int written;

        SavedIntervals(ResultsFile file, AttackTimeline timeline, long intervalNanos) {
            this.file = file;
            this.timeline = timeline;
            this.intervalNanos = intervalNanos;
        }

        @Override public synchronized void onInterval(long startNanos, long endNanos, org.HdrHistogram.Histogram latencyNanos) {
            List<AttackInterval> now = timeline.intervals(endNanos);
            long ended = endNanos / intervalNanos;
            for (; written < Math.min(ended, now.size()); written++) file.write(LIVE, now.get(written));
        }

        /** Writes the exact timeline at the attack's end. */
        synchronized void finish(List<AttackInterval> all) {
            for (AttackInterval i : all) file.write("attack-interval", i);
        }
    }

    /** Builds and validates the settings; every error names its flag. */
    AttackSettings settings() {
        if ((url == null) == (targetsFile == null))
            throw new IllegalArgumentException(url == null ? "give a URL or --targets FILE" : "give either a URL or --targets, not both");
        long durationNanos = Flags.duration("--duration", duration);
        long timeoutNanos = Flags.duration("--timeout", timeout);
        long lateNanos = Flags.duration("--late-threshold", lateThreshold);
        List<Map.Entry<String, String>> hs = headers.stream().map(h -> Targets.header("--header", h)).toList();
        byte[] bodyBytes = body();
        List<Target> targets;
        if (url != null) {
            String m = method.trim().toUpperCase(Locale.ROOT);
            if (!m.matches("[A-Z]+")) throw new IllegalArgumentException("--method: '" + method + "' is not an HTTP method");
            URIHolder u = new URIHolder(url);
            targets = List.of(new Target(m, u.uri, hs, bodyBytes));
        } else {
            targets = Targets.load(targetsFile, hs, bodyBytes);
        }
        if (users != null && rate != null) throw new IllegalArgumentException("choose one of --rate and --users");
        if (users != null && step != null) throw new IllegalArgumentException("--step goes with a stepped --rate, not --users");
        Arrival schedule = users != null
                ? new Arrival.Closed(Flags.positive("--users", users), durationNanos)
                : new Arrival.Open(Rates.parse(rate == null ? Defaults.ATTACK_RATE : rate, durationNanos,
                step == null ? 0 : Flags.duration("--step", step)), durationNanos);
        return new AttackSettings(targets, schedule, timeoutNanos, maxConnections, lateNanos,
                AttackSettings.DEFAULT_INTERVAL_NANOS, client(),
                warmup == null ? AttackSettings.defaultWarmupNanos(schedule) : warmupNanos());
    }

    private long warmupNanos() {
        return warmup.trim().matches("0+(\\.0*)?([a-zµ]+)?") ? 0 : Flags.duration("--warmup", warmup);
    }

    private AttackSettings.Client client() {
        return switch (client.trim().toLowerCase(Locale.ROOT)) {
            case "netty" -> AttackSettings.Client.NETTY;
            case "vertx" -> AttackSettings.Client.VERTX;
            case "jdk" -> AttackSettings.Client.JDK;
            default -> throw new IllegalArgumentException("--client: '" + client + "' is not one of netty, vertx, jdk");
        };
    }

    private byte[] body() {
        if (body == null) return new byte[0];
        if (!body.startsWith("@")) return body.getBytes(StandardCharsets.UTF_8);
        try {
            return Files.readAllBytes(Path.of(body.substring(1)));
        } catch (IOException e) {
            throw new IllegalArgumentException("--body: cannot read " + body.substring(1) + ": " + dev.blocklab.TextFiles.reason(e));
        }
    }

    /** The positional URL, parsed with an error that names it. */
    private static final class URIHolder {
        final java.net.URI uri;
        URIHolder(String text) {
            try {
                uri = Target.parseUrl(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("URL: " + e.getMessage());
            }
        }
    }
}
