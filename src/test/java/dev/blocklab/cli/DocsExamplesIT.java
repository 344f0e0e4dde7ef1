package dev.blocklab.cli;

import dev.blocklab.attack.TrivialServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The docs check that runs: every {@code blocklab} command line of README.md and docs/*.md (as
 * {@link DocsExamplesTest} finds them) is executed in process, quickly, and must exit 0 (or 1 where it gives
 * {@code --fail-if}) without a stack trace; the few that cannot run are listed in {@link #NOT_RUN} by their command
 * line, each with its reason, so a new example is run unless someone lists it here, and a listed one that is no
 * longer documented fails the check.
 *
 * <p>How each kind runs:
 * <ul>
 *   <li>{@code run}, {@code reproduce}: delays divided by 100 ({@code --time-scale 100}, {@code --full} and
 *       {@code --quick} dropped), batches capped at 1,000 requests, durations cut to 1 s ({@code run}: its rate steps
 *       dividing that second).</li>
 *   <li>{@code serve}, {@code backend}: started on a free port of 127.0.0.1 in a thread of this JVM; once it prints
 *       'listening on' it keeps running for the examples after it in the same file (attacks on its documented port
 *       go to it, a {@code --backend-url} naming that port points at it), until a later example takes the same
 *       documented port or the file ends; then it is stopped (interrupted) and must end with exit 0.</li>
 *   <li>{@code attack}: its URL's port rewritten to the server above, or, for a port no example of the file
 *       serves, to one {@code blocklab serve} (time scale 100) or, for the path {@code /}, one null target
 *       ({@link TrivialServer}, what docs/distributed.md runs), both started once; {@code --duration 1s},
 *       {@code --warmup 0}, every rate capped at 500/s, {@code --step} the duration over the steps,
 *       {@code --workers 2}; {@code --targets} and placeholders ({@code R/s}, {@code vertx|jdk}) filled in.</li>
 *   <li>{@code report --merge}: the directory of the last {@code --workers} attack run here, or a log holding
 *       the records of two shards run here (as {@code kubectl logs} gathers them).</li>
 *   <li>Output files ({@code --out}, {@code --html}, {@code --save}, {@code --hlog}, {@code --responses}) go to a
 *       temporary directory; {@code --workers}' own directories under results/ are removed afterwards.</li>
 * </ul>
 * A command line documented twice runs once, and so does one that another runs with {@code --html} besides
 * ({@link #coveringRuns}). The test prints each example's time and the tally.
 *
 * <p>Opt-in ({@code -Dblocklab.docs.run=true}), run by {@code .ci/run} after the test suite. 2026-11-26 on the
 * shared 2-core machine at load average 14 to 34: 62 examples run, 30 not, in 321 s (reproduce 142 s, run 106 s,
 * attack 59 s of which the three {@code --workers} runs took 38 s, starting two JVMs each; serve and backend 5 s,
 * report 3 s); again at load 20: 385 s (attack 75 s, the {@code --workers} runs 55 s). The measuring examples dominate: {@code reproduce hundred-thousand-calls}, {@code overhead}, the
 * default three and the embedded PostgreSQL's start take 30 to 45 s each at that load.
 */
class DocsExamplesIT {
    @TempDir Path dir;

    /** Examples not run, by their command line (the words after {@code blocklab}), each with its reason. */
    static final Map<String, String> NOT_RUN = notRun(
            List.of("the launcher's test command: CI itself runs it", "test"),
            List.of("the launcher builds the JMH jar (Maven profile jmh, minutes) and runs JMH; docs/benchmarks.md",
                    "bench", "bench -l", "bench -h", "bench HandoffBenchmark -f 1 -wi 2 -i 3",
                    "bench HandoffBenchmark -p threads=virtual -p blockBytes=16384"),
            List.of("a fixed ladder against its own null target, 1,000/s to 100,000/s for 3 s each after a 6 s warm-up (about a "
                    + "minute, most of it at rates this loaded machine cannot send); CalibrationTest checks the climb on a table",
                    "attack --calibrate"),
            List.of("15 framework variants at real delays (the JSON work is not scaled, so quick runs keep the delays and shorten "
                    + "the runs: about five minutes); FrameworksExperimentTest runs it with a small plan",
                    "reproduce frameworks --quick", "reproduce frameworks --full", "reproduce frameworks --quick --format json",
                    "reproduce frameworks --quick --backend http", "reproduce frameworks --quick --audit --fail-if misuse>0"),
            List.of("a rate search over the 15 variants at real delays (many minutes); FrameworksCapacityExperimentTest runs it "
                    + "with a small plan", "reproduce frameworks-capacity --quick", "reproduce frameworks-capacity --full",
                    "reproduce frameworks-capacity --quick --backend http"),
            List.of("four JAX-RS resources in Tomcat + Jersey, each beside its in-process variant, at real delays (the quick plan: "
                    + "3 combinations x 3 s per variant, about two minutes with the warm-up); SeedStacksExperimentTest runs it small",
                    "reproduce frameworks-servlet"),
            List.of("the talk's play-2.5 attacks on Pekko HTTP and on serve, each server warmed up first: 63 s at delays / 100 "
                    + "(load 27, 2026-11-26); SeedStacksExperimentTest runs two attacks of it",
                    "reproduce profile-page-pekko", "reproduce profile-page-pekko --time-scale 1"),
            List.of("1,000,000 virtual threads at once, three times, beside the bare JDK: gigabytes of heap (the launcher sizes it); "
                    + "MillionJobsExperimentTest runs the same code with 2,000 jobs", "reproduce million-jobs"),
            List.of("the launcher's own mode, running a main class of the jar with the JDK 25 it finds; the attacks after it "
                    + "go to the same TrivialServer, started in this JVM", "class dev.blocklab.attack.TrivialServer 18195 1 900",
                    "class dev.blocklab.attack.TrivialServer 18921 1 900"),
            List.of("rate searches of several entries in real time, seconds at every rate (minutes each); CapacityCommandTest "
                    + "runs the same search at small steps",
                    "capacity --workload mixed --entry fixed:16 --entry virtual --slo p99<=550ms --slo success>=98% --step 2s --repeats 1 --max-rate 400/s",
                    "capacity --workload hundred-calls --entry fixed:8 --entry virtual --slo p99<=1500ms --step 3s --repeats 1 --max-rate 200/s",
                    "capacity --workload frameworks --entry invokeall:16 --entry reactor --entry virtual --html capacity.html",
                    "capacity --workload profile-page --entry http:play-2.5/sync-blocking --entry http:virtual/sync-blocking --slo p99<=1200ms",
                    "advise --workload examples/my-workload.yaml --slo p99<=300ms --slo success>=98%",
                    "advise --workload mixed --entry fixed:32 --entry virtual --slo success>=98% --step 2s --repeats 1"),
            List.of("embedded PostgreSQL and redis-server through every model, about two minutes (docs/database.md); the run "
                    + "--backend postgres and redis examples here start the same servers", "reproduce database"));

    /** Each list: a reason, then the command lines it is the reason for. */
    @SafeVarargs
    private static Map<String, String> notRun(List<String>... reasons) {
        Map<String, String> byLine = new LinkedHashMap<>();
        for (List<String> r : reasons)
            for (String line : r.subList(1, r.size()))
                if (byLine.put(line, r.getFirst()) != null) throw new IllegalStateException("listed twice: " + line);
        return byLine;
    }

    static Cli.Run blocklab(List<String> args) { return Cli.run(args.toArray(String[]::new)); }

    /** A {@code serve} or {@code backend} running in a thread of this JVM until stopped. */
    record Running(String where, List<String> args, Thread thread, StringWriter out, StringWriter err, int[] exit, int port) {
        /** Interrupts it and waits (bounded) for it to end; a problem, or null when it stopped cleanly. */
        String stop() throws InterruptedException {
            thread.interrupt();
            thread.join(30_000);
            if (thread.isAlive()) return where + ": blocklab " + String.join(" ", args) + " did not stop within 30 s of an interrupt";
            if (exit[0] != 0 || tracesIn(err.toString()))
                return where + ": blocklab " + String.join(" ", args) + " -> exit " + exit[0] + " when stopped\n    " + firstLines(err.toString());
            return null;
        }
    }

    static Running start(String where, List<String> args) throws InterruptedException {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int[] exit = {-1};
        Thread thread = Thread.ofPlatform().daemon().name("docs-" + args.getFirst()).start(() ->
                exit[0] = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true)));
        long deadline = System.nanoTime() + 90_000_000_000L;   // an embedded PostgreSQL unpacks and starts first
        Matcher listening;
        while (!(listening = LISTENING.matcher(out.toString())).find() && thread.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
        if (!listening.find(0)) {
            thread.interrupt();
            thread.join(10_000);
            throw new IllegalStateException(where + ": blocklab " + String.join(" ", args) + " did not print 'listening on' (exit "
                    + exit[0] + ")\n    " + firstLines(err.toString()));
        }
        return new Running(where, args, thread, out, err, exit, Integer.parseInt(listening.group(1)));
    }

    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");

    /** While working on some examples: {@code -Dblocklab.docs.only=REGEX} runs those whose 'file:line command line' it finds. */
    private static final Pattern ONLY = Pattern.compile(System.getProperty("blocklab.docs.only", ""));

    /** A 200 among the status codes of an attack's report, in text or JSON. */
    private static final Pattern ANSWERED = Pattern.compile("Status Codes +\\[code:count\\] +(.*  )?200:[1-9]|\"statusCodes\" *: *\\{[^}]*\"200\" *: *[1-9]");

    static boolean tracesIn(String err) { return err.contains("\tat ") || err.contains("Exception in"); }

    static String firstLines(String err) {
        return err.lines().filter(l -> !l.startsWith("... ")).limit(5).reduce((a, b) -> a + "\n    " + b).orElse("");
    }

    /** The servers an example file has started, by the port its examples name; the shared fallbacks. */
    private final Map<Integer, Running> serving = new LinkedHashMap<>();
    private Running fallbackServe;
    private TrivialServer nullTarget;
    /** The directories that {@code attack --workers} made under results/, in order. */
    private final List<Path> workerDirs = new ArrayList<>();
    private Path shardsLog;

    /** The example's arguments made quick and pointed at {@code dir}. */
    List<String> quick(List<String> args, Path results) throws Exception {
        String command = args.getFirst();
        boolean measures = command.equals("run") || command.equals("reproduce");
        boolean attack = command.equals("attack");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String next = i + 1 < args.size() ? args.get(i + 1) : null;
            if (measures && (a.equals("--full") || a.equals("--quick"))) continue;
            if (measures && a.equals("--time-scale") && next != null) { i++; continue; }
            if (attack && (a.equals("--warmup") || a.equals("--step")) && next != null) { i++; continue; }   // set below
            if (attack && a.equals("--duration") && next != null) { i++; continue; }                          // set below
            if (command.equals("run") && a.equals("--step") && next != null) { i++; continue; }   // steps divide the 1 s below
            if (a.equals("--duration") && next != null) { out.add(a); out.add("1s"); i++; continue; }
            if (a.equals("--requests") && next != null && next.matches("[0-9]+")) { out.add(a); out.add(String.valueOf(Math.min(1000, Long.parseLong(next)))); i++; continue; }
            if (List.of("--out", "--html", "--save", "--hlog", "--responses").contains(a) && next != null) {
                out.add(a);
                out.add(dir.resolve(Path.of(next).getFileName().toString()).toString());
                i++;
                continue;
            }
            if (a.equals("--workload") && next != null && next.equals("my.yaml")) {   // the reader's own file: the example one
                out.add(a);
                out.add(Files.copy(Path.of("examples/my-workload.yaml"), dir.resolve("my.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING).toString());
                i++;
                continue;
            }
            if (attack && a.equals("--rate") && next != null) { out.add(a); out.add(cappedRates(next)); i++; continue; }
            if (attack && a.equals("--workers") && next != null) { out.add(a); out.add("2"); i++; continue; }
            if (attack && a.equals("--client") && next != null) { out.add(a); out.add(next.contains("|") ? next.substring(0, next.indexOf('|')) : next); i++; continue; }
            if (attack && a.equals("--targets") && next != null) { out.add(a); out.add(targetsFile().toString()); i++; continue; }
            if (attack && a.startsWith("http://")) { out.add(pointed(a)); continue; }
            if (command.equals("report") && i > 0 && !a.startsWith("-") && a.endsWith(".jsonl")) { out.add(results.toString()); continue; }
            out.add(a);
        }
        if (measures) {
            out.addAll(List.of("--time-scale", "100"));
            if (!out.contains("--save")) out.addAll(List.of("--save", dir.resolve("saved-" + out.size() + ".jsonl").toString()));
        }
        if (attack) {
            out.addAll(List.of("--duration", "1s", "--warmup", "0"));
            int rate = out.indexOf("--rate");
            if (args.contains("--step") && rate >= 0) out.addAll(List.of("--step", 1000 / out.get(rate + 1).split(",").length + "ms"));
        }
        return out;
    }

    /** Every rate of a {@code --rate} value at most 500/s (a placeholder such as {@code R/s} becomes 200/s). */
    static String cappedRates(String rates) {
        Matcher m = Pattern.compile("(\\d+(?:\\.\\d+)?|[A-Z]+)/s").matcher(rates);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String n = m.group(1);
            long perSecond = n.matches("[A-Z]+") ? 200 : Math.min(500, Math.round(Double.parseDouble(n)));
            m.appendReplacement(b, perSecond + "/s");
        }
        m.appendTail(b);
        return b.toString();
    }

    /** {@code url} with its port replaced by that of the server it should reach here. */
    String pointed(String url) throws Exception {
        URI u = URI.create(url);
        Running documented = serving.get(u.getPort());
        int port;
        if (documented != null) port = documented.port();
        else if (u.getPath().equals("/")) port = nullTarget().port();
        else port = fallbackServe().port();
        return "http://127.0.0.1:" + port + (u.getRawPath() == null ? "/" : u.getRawPath()) + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
    }

    private Running fallbackServe() throws InterruptedException {
        if (fallbackServe == null) fallbackServe = start("(fallback server)", List.of("serve", "--port", "0", "--time-scale", "100", "--quiet"));
        return fallbackServe;
    }

    private TrivialServer nullTarget() {
        if (nullTarget == null) nullTarget = TrivialServer.start(0, 1);
        return nullTarget;
    }

    /** vegeta's targets format: two of the talk's endpoints on the server an attack in the file would reach. */
    private Path targetsFile() throws Exception {
        return Files.writeString(dir.resolve("targets.txt"), "GET " + pointed("http://127.0.0.1:9000/async-non-blocking") + "\n\n"
                + "GET " + pointed("http://127.0.0.1:9000/health") + "\nX-Trace: 1\n");
    }

    /** A server example's arguments: port 0 (the port it listens on is read back), a --backend-url to the backend started here. */
    List<String> serverArgs(List<String> args) throws IOException {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String next = i + 1 < args.size() ? args.get(i + 1) : null;
            if (a.equals("--port") && next != null) { i++; continue; }
            if (a.equals("--backend-url") && next != null) {
                Running backend = serving.get(URI.create(next).getPort());
                out.add(a);
                out.add(backend == null ? next : "http://127.0.0.1:" + backend.port());
                i++;
                continue;
            }
            if (a.equals("--routes") && next != null) {
                out.add(a);
                out.add(Files.writeString(dir.resolve("routes.txt"), "# a route file as docs/server.md describes\n"
                        + "/orders delay=lognormal(40ms,250ms) bytes=2048\n/user delay=200ms body=Anton\n").toString());
                i++;
                continue;
            }
            out.add(a);
        }
        out.addAll(List.of("--port", "0"));
        return out;
    }

    /** The port a server example documents: its --port, or the command's default. */
    static int documentedPort(List<String> args) {
        int at = args.indexOf("--port");
        if (at >= 0) return Integer.parseInt(args.get(at + 1));
        return args.getFirst().equals("serve") ? dev.blocklab.Defaults.SERVE_PORT : dev.blocklab.Defaults.BACKEND_PORT;
    }

    /** {@code report --merge}'s inputs: the last --workers directory made here, or the shards' log. */
    List<String> mergeArgs(List<String> args) throws Exception {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String next = i + 1 < args.size() ? args.get(i + 1) : null;
            if (a.equals("--merge")) continue;
            if (!a.startsWith("-") && a.startsWith("results/workers-")) {
                if (workerDirs.isEmpty()) throw new IllegalStateException("report --merge " + a + " before any attack --workers example ran");
                out.add(workerDirs.getLast().toString());
                continue;
            }
            if (!a.startsWith("-") && a.endsWith(".log")) { out.add(shardsLog().toString()); continue; }
            if (a.equals("--out") && next != null) { out.add(a); out.add(dir.resolve(Path.of(next).getFileName().toString()).toString()); i++; continue; }
            out.add(a);
        }
        out.add(1, "--merge");
        return out;
    }

    /** What {@code kubectl logs} gathers from a Job's pods: two shards' reports, each followed by its record. */
    private Path shardsLog() throws Exception {
        if (shardsLog != null) return shardsLog;
        String url = "http://127.0.0.1:" + nullTarget().port() + "/";
        String startAt = Instant.now().plusMillis(1500).toString();
        StringBuilder log = new StringBuilder();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            List<Future<Cli.Run>> shards = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                List<String> args = List.of("attack", url, "--rate", "100/s", "--duration", "1s", "--warmup", "200ms", "--quiet",
                        "--shard", i + "/2", "--start-at", startAt);
                shards.add(pool.submit(() -> blocklab(args)));
            }
            for (Future<Cli.Run> f : shards) {
                Cli.Run e = f.get();
                assertThat(e.exit()).as(e.err()).isZero();
                log.append(e.out());
            }
        }
        return shardsLog = Files.writeString(dir.resolve("shards.log"), log);
    }

    /** A run's arguments without the files it writes: two examples with the same measure the same. */
    static String measured(List<String> args) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (List.of("--save", "--html").contains(args.get(i))) i++;
            else kept.add(args.get(i));
        }
        return String.join(" ", kept);
    }

    /**
     * For the {@code run} and {@code reproduce} examples that measure the same as one that also writes
     * {@code --html}: that example, which alone runs. README's {@code reproduce --html report.html} covers
     * {@code reproduce} (the same report, plus the page) and each of the default experiments it runs with the same
     * options ({@code reproduce hundred-calls}, {@code reproduce task-graph --full} at the check's scale): the
     * same experiment objects run with the same settings, and their text reports are in its output.
     */
    private Map<String, DocsExamplesTest.Example> coveringRuns(Path results) throws Exception {
        Map<String, DocsExamplesTest.Example> covering = new HashMap<>();
        for (DocsExamplesTest.Example e : DocsExamplesTest.examples()) {
            if (e.args().isEmpty() || !List.of("run", "reproduce").contains(e.args().getFirst()) || NOT_RUN.containsKey(String.join(" ", e.args())))
                continue;
            List<String> args = quick(e.args(), results);
            if (!args.contains("--html")) continue;
            covering.putIfAbsent(measured(args), e);
            if (args.getFirst().equals("reproduce") && (args.size() == 1 || args.get(1).startsWith("-")))
                for (dev.blocklab.experiment.Experiment d : dev.blocklab.experiment.Experiments.defaults()) {   // and each of its three
                    List<String> one = new ArrayList<>(args);
                    one.add(1, d.name());
                    covering.putIfAbsent(measured(one), e);
                }
        }
        return covering;
    }

    @Test void everyDocumentedCommandLine_runsQuickly_orIsListedWithItsReason() throws Exception {
        assumeTrue(Boolean.getBoolean("blocklab.docs.run"), "opt-in: -Dblocklab.docs.run=true");
        long began = System.nanoTime();
        // a saved run for the report examples
        Path results = dir.resolve("fixture.jsonl");
        assertThat(blocklab(List.of("run", "--workload", "task-graph", "--model", "fixed:2", "--model", "virtual", "--time-scale", "100",
                "--warmups", "0", "--repeats", "1", "--quiet", "--save", results.toString())).exit()).isZero();
        List<String> problems = new ArrayList<>();
        List<String> notRun = new ArrayList<>();
        Set<String> listedAndFound = new TreeSet<>();
        Map<String, String> ranAlready = new HashMap<>();   // a command line documented twice runs once
        Map<String, Integer> ranByCommand = new java.util.TreeMap<>();
        Map<String, DocsExamplesTest.Example> covering = coveringRuns(results);
        Set<Path> workersBefore = WorkersDirs.now();
        String file = null;
        try {
            for (DocsExamplesTest.Example e : DocsExamplesTest.examples()) {
                if (e.args().isEmpty() || !ONLY.matcher(e.where() + " " + String.join(" ", e.args())).find()) continue;
                String exampleFile = e.where().substring(0, e.where().lastIndexOf(':'));
                if (!exampleFile.equals(file)) {   // a file's servers serve only its own examples
                    problems.addAll(stopAll(serving.values()));
                    serving.clear();
                    file = exampleFile;
                }
                String line = String.join(" ", e.args());
                String command = e.args().getFirst();
                if (NOT_RUN.containsKey(line)) {
                    listedAndFound.add(line);
                    notRun.add(e.where() + " " + line + ": " + NOT_RUN.get(line));
                    continue;
                }
                long start = System.nanoTime();
                String ran;
                if (command.equals("serve") || command.equals("backend")) {
                    List<String> args = serverArgs(e.args());
                    ran = String.join(" ", args);
                    try {
                        Running r = start(e.where(), args);
                        ranByCommand.merge(command, 1, Integer::sum);
                        int port = documentedPort(e.args());
                        if (port == 0) {   // nothing names it: stopped at once
                            Thread.sleep(300);
                            String stopped = r.stop();
                            if (stopped != null) problems.add(stopped);
                        } else {
                            Running replaced = serving.put(port, r);
                            if (replaced != null) problems.addAll(stopAll(List.of(replaced)));
                        }
                    } catch (IllegalStateException notListening) {
                        problems.add(notListening.getMessage());
                    }
                } else {
                    List<String> args = command.equals("report") && e.args().contains("--merge") ? mergeArgs(e.args()) : quick(e.args(), results);
                    ran = String.join(" ", args);
                    DocsExamplesTest.Example cover = covering.get(measured(args));
                    if (cover != null && !cover.equals(e)) {
                        notRun.add(e.where() + ": covered by " + cover.where() + ", which runs the same and also writes --html");
                        continue;
                    }
                    String same = ranAlready.putIfAbsent(ran, e.where());
                    if (same != null) { notRun.add(e.where() + ": the same command line as " + same + ", run once"); continue; }
                    Set<Path> workersBeforeThis = WorkersDirs.now();
                    Cli.Run exit = blocklab(args);
                    if (args.contains("--workers")) workerDirs.addAll(WorkersDirs.madeSince(workersBeforeThis));
                    boolean thresholdExample = args.contains("--fail-if");
                    if (!(exit.exit() == 0 || thresholdExample && exit.exit() == 1) || tracesIn(exit.err()))
                        problems.add(e.where() + ": blocklab " + ran + " -> exit " + exit.exit() + "\n    " + firstLines(exit.err()));
                    if (command.equals("attack") && !ANSWERED.matcher(exit.out()).find())   // the rewritten port reached a server
                        problems.add(e.where() + ": blocklab " + ran + " reported no 200 answer\n    " + firstLines(exit.out()));
                    ran += " -> " + exit.exit();
                    ranByCommand.merge(command, 1, Integer::sum);
                }
                System.out.println("docs example " + e.where() + " (" + (System.nanoTime() - start) / 1_000_000 + " ms): blocklab " + ran);
            }
        } finally {
            problems.addAll(stopAll(serving.values()));
            serving.clear();
            if (fallbackServe != null) problems.addAll(stopAll(List.of(fallbackServe)));
            if (nullTarget != null) nullTarget.close();
            WorkersDirs.delete(WorkersDirs.madeSince(workersBefore));
        }
        int ran = ranByCommand.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("docs examples: " + ran + " run " + ranByCommand + " in " + (System.nanoTime() - began) / 1_000_000_000 + " s, "
                + notRun.size() + " not run:\n  " + String.join("\n  ", notRun));
        Set<String> stale = new TreeSet<>(NOT_RUN.keySet());
        stale.removeAll(listedAndFound);
        if (ONLY.pattern().isEmpty()) {
            assertThat(stale).as("NOT_RUN entries that no README or docs example has any more").isEmpty();
            assertThat(ranByCommand).containsKeys("attack", "serve", "backend", "report", "run", "reproduce");
        }
        assertThat(problems).as("documented command lines that fail when run").isEmpty();
    }

    private static List<String> stopAll(java.util.Collection<Running> running) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        for (Running r : running) {
            String p = r.stop();
            if (p != null) problems.add(p);
        }
        return problems;
    }
}
