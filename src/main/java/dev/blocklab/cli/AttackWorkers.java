package dev.blocklab.cli;

import dev.blocklab.report.ResultsFile;
import dev.blocklab.result.AttackInterval;
import dev.blocklab.report.AttackReportFormat;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.attack.Threshold;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;
import dev.blocklab.shard.ShardMerge;
import dev.blocklab.shard.StartAt;
import dev.blocklab.workload.Durations;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code blocklab attack ... --workers N}: the same attack as N child JVMs on this machine (the same java, JVM
 * flags and class path as this one), worker {@code i} running {@code --shard i/N} from one common
 * {@code --start-at}, each saving its shard record under {@code results/workers-<time>/}; when all have ended,
 * their records are merged exactly ({@link ShardMerge}) and reported in the asked format, with one line per worker.
 * A worker that fails is named, never dropped silently.
 */
final class AttackWorkers {
    /** Options of the parent that the workers do not take: the parent writes the merged outputs. */
    private static final Set<String> PARENT_ONLY = Set.of("--workers", "--save", "--html", "--hlog", "--format", "--fail-if",
            "--start-at", "--shard", "--output", "--responses");
    /**
     * How long after every worker is up (waiting on the barrier) the measured schedule starts, besides the warm-up:
     * each still creates its client and opens its first connections.
     */
    static final long START_LEAD_MILLIS = 3_000;
    /** How long the workers may take to start before the attack is abandoned. */
    static final long STARTUP_TIMEOUT_MILLIS = 120_000;

    private final AttackCommand c;

    AttackWorkers(AttackCommand command) { this.c = command; }

    int run() {
        int n = Flags.positive("--workers", c.workers);
        if (c.shard != null) throw new IllegalArgumentException("--workers runs the shards itself: give no --shard");
        if (c.responses != null) throw new IllegalArgumentException("--responses streams one process's responses: not with --workers (each worker's record is saved)");
        if (c.users != null) throw new IllegalArgumentException("--workers splits an open schedule (--rate), not --users");
        AttackSettings settings = c.settings();   // validates every flag once, here, before any worker starts
        AttackReportFormat format = AttackReportFormat.parse(c.format);
        List<Threshold> thresholds = c.failIf.stream().map(Threshold::parse).toList();
        PrintWriter out = c.spec.commandLine().getOut(), err = c.spec.commandLine().getErr();
        Instant given = c.startAt != null ? dev.blocklab.attack.Attack.refuseEnded(settings.schedule(),
                StartAt.parse(c.startAt, Clock.systemUTC(), StartAt.BARRIER_TIMEOUT_MILLIS), Instant.now()) : null;
        Path dir = Path.of("results", "workers-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        List<String> original = c.spec.commandLine().getParseResult().originalArgs();
        // picocli keeps the whole command line; the workers get what follows the subcommand's name
        List<String> base = workerArgs(original.subList(original.indexOf("attack") + 1, original.size()));
        // Ctrl-C or SIGTERM, from here on: each worker started is told to stop (SIGTERM: it stops sending, then
        // reports and saves its share) and the hook waits while this thread merges and reports what they measured,
        // as a single attack does
        List<Process> processes = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
        Thread hook = Thread.ofPlatform().name("workers-stop").unstarted(() -> {
            stopping.set(true);
            processes.forEach(Process::destroy);
            try {
                reported.await(STOP_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            processes.forEach(Process::destroyForcibly);   // none is left behind
        });
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            List<Path> files = start(n, dir, given, base, processes, stopping);
            return merge(n, processes, files, dir, given, settings, format, thresholds, out, err, stopping);
        } finally {
            reported.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running and waits for the report printed above
            }
        }
    }

    /** Starts the N workers into {@code processes}; a stop asked meanwhile stops each as it starts. Their save files. */
    private List<Path> start(int n, Path dir, Instant given, List<String> base, List<Process> processes,
                             java.util.concurrent.atomic.AtomicBoolean stopping) {
        List<Path> files = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            Path barrier = dir.resolve("start-at");
            for (int i = 0; i < n; i++) {
                Path save = dir.resolve("shard-" + i + ".jsonl");
                files.add(save);
                List<String> command = new ArrayList<>(javaCommand());
                command.addAll(base);
                command.addAll(List.of("--shard", i + "/" + n, "--start-at", given != null ? given.toString() : "@" + barrier, "--save", save.toString(),
                        "--hlog", dir.resolve("shard-" + i + ".hlog").toString(), "--format", "json", "--quiet"));
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("shard-" + i + ".log").toFile()).start();
                processes.add(p);
                if (stopping.get()) p.destroy();   // the hook may have passed over it
            }
        } catch (IOException e) {
            processes.forEach(Process::destroy);
            throw new Main.UsageException("--workers: cannot start a worker: " + e.getMessage());
        }
        return files;
    }

    /** How long a stop waits for the workers to report and this process to merge them. */
    static final long STOP_WAIT_MILLIS = dev.blocklab.attack.Attack.STOP_GRACE_NANOS / 1_000_000 + 30_000;

    /** Starts the workers' schedule (unless --start-at gave it), waits for them, then merges and reports. */
    private int merge(int n, List<Process> processes, List<Path> files, Path dir, Instant given, AttackSettings settings,
                      AttackReportFormat format, List<Threshold> thresholds, PrintWriter out, PrintWriter err,
                      java.util.concurrent.atomic.AtomicBoolean stopping) {
        ConsoleProgress progress = new ConsoleProgress(err, c.console.quiet);
        Instant start = given != null ? given : release(dir.resolve("start-at"), processes, settings, progress, stopping);
        if (start == null) {   // stopped while they started: none was released, so none measured anything
            awaitAll(processes, settings, progress, null);
            progress.clear();
            err.println("workers: stopped before the common start: nothing was measured, nothing saved (the workers' logs are in " + dir + ")");
            err.flush();
            return 1;
        }
        if (!c.console.quiet) err.println("workers: " + n + " processes, the measured schedule starts at " + start + "; files in " + dir);
        List<Integer> exits = awaitAll(processes, settings, progress, start);
        progress.clear();
        if (stopping.get()) err.println("workers: stopped; merging what the " + n + " workers measured before they stopped");
        for (int i = 0; i < n; i++)
            if (exits.get(i) != 0 && !(stopping.get() && STOPPED_EXITS.contains(exits.get(i))))
                err.println("blocklab: worker " + i + "/" + n + " exited with code " + exits.get(i) + " (its output: " + dir.resolve("shard-" + i + ".log") + ")");

        ShardMerge merged = ShardMerge.of(ShardMerge.read(files));
        String report = format.create().render(merged.result());
        // a missing or failed worker in the headline, as 'report --merge' says it: its share of the rate was never sent
        if (format == AttackReportFormat.TEXT)
            merged.incomplete().ifPresent(line -> out.println(line + " (the figures below are the reporting workers' only)"));
        out.print(format == AttackReportFormat.JSON ? MergeReport.withMerge(report, merged) : report);
        if (format == AttackReportFormat.TEXT && !merged.result().measuredNothing()) out.print(workersText(merged.shardsTable()));
        out.flush();
        merged.incomplete().ifPresent(line -> err.println("blocklab: " + line));
        if (c.results.save != null || c.results.html != null) {
            ExperimentResult experiment = merged.experiment(Environment.current());
            if (c.results.save != null) {
                try (ResultsFile file = new ResultsFile(c.results.save)) {
                    for (AttackInterval i : merged.intervals()) file.write("attack-interval", i);
                    file.writeResult(experiment);
                    c.console.saved(err, file);
                }
            }
            if (c.results.html != null) {
                ReportCommand.writeHtml(c.results.html, "attack " + merged.result().description(), List.of(experiment), ReportCommand.now());
                c.console.saved(err, "HTML report", c.results.html);
            }
        }
        int exit = merged.problems().isEmpty() ? 0 : 1; // a missing or failed worker: not a complete attack
        for (Threshold t : thresholds) {
            var v = t.violation(merged.result());
            if (v.isPresent()) {
                err.println("blocklab: " + v.get());
                exit = 1;
            }
        }
        err.flush();
        return exit;
    }

    /**
     * Waits until every worker waits on the barrier (or has ended), then writes the common start into it: now plus
     * {@link #START_LEAD_MILLIS} plus the warm-up, so no worker starts its schedule late because its JVM was slow.
     * Null, the barrier left unwritten, when a stop is asked meanwhile (the stop's SIGTERM ends the workers' wait).
     */
    private static Instant release(Path barrier, List<Process> processes, AttackSettings settings, ConsoleProgress progress,
                                   java.util.concurrent.atomic.AtomicBoolean stopping) {
        long deadline = System.currentTimeMillis() + STARTUP_TIMEOUT_MILLIS;
        long ready;
        while ((ready = StartAt.readyCount(barrier)) + processes.stream().filter(p -> !p.isAlive()).count() < processes.size()) {
            if (stopping.get()) return null;
            if (System.currentTimeMillis() > deadline) {
                processes.forEach(Process::destroy);
                throw new IllegalStateException("--workers: only " + ready + " of " + processes.size() + " workers started within "
                        + STARTUP_TIMEOUT_MILLIS / 1000 + "s");
            }
            progress.update("workers: " + ready + " of " + processes.size() + " up");
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                processes.forEach(Process::destroy);
                throw new IllegalStateException("interrupted while the workers started");
            }
        }
        if (stopping.get()) return null;
        Instant start = Instant.now().plusMillis(START_LEAD_MILLIS + settings.warmupNanos() / 1_000_000);
        try {
            Path partial = barrier.resolveSibling(barrier.getFileName() + ".tmp");
            Files.writeString(partial, start.toString());
            Files.move(partial, barrier, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            processes.forEach(Process::destroy);
            throw new Main.UsageException("--workers: cannot write the start barrier " + barrier + ": " + dev.blocklab.TextFiles.reason(e));
        }
        return start;
    }

    /** A worker's exit codes after the SIGINT (128 + 2) or SIGTERM (128 + 15) of a stop: it reported and saved its share first. */
    static final Set<Integer> STOPPED_EXITS = Set.of(130, 143);

    /**
     * Waits for every worker, at most the schedule plus the timeout plus a minute; a worker still running then is
     * ended. The progress says how far the common schedule from {@code start} (null: none) has gone.
     */
    private static List<Integer> awaitAll(List<Process> processes, AttackSettings settings, ConsoleProgress progress, Instant start) {
        long waitMillis = START_LEAD_MILLIS + STARTUP_TIMEOUT_MILLIS + (settings.warmupNanos() + AttackSettings.durationNanos(settings.schedule()) + settings.timeoutNanos()) / 1_000_000 + 60_000;
        long deadline = System.currentTimeMillis() + waitMillis;
        List<Integer> exits = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            Process p = processes.get(i);
            try {
                while (!p.waitFor(250, TimeUnit.MILLISECONDS)) {
                    long done = processes.stream().filter(x -> !x.isAlive()).count();
                    progress.update(waitingLine(done, processes.size(), start, AttackSettings.durationNanos(settings.schedule()), Instant.now()));
                    if (System.currentTimeMillis() > deadline) {
                        p.destroyForcibly();
                        break;
                    }
                }
                exits.add(p.waitFor());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                processes.forEach(Process::destroy);
                throw new IllegalStateException("interrupted while waiting for the workers");
            }
        }
        return exits;
    }

    /**
     * The progress while the workers run: how many are done, and where the common schedule from {@code start}
     * (null: not known) of {@code durationNanos} is at {@code now}: its warm-up, its elapsed time, or its drain.
     */
    static String waitingLine(long done, int workers, Instant start, long durationNanos, Instant now) {
        String line = "workers: " + done + " of " + workers + " done";
        if (start == null) return line;
        long elapsedNanos = java.time.Duration.between(start, now).toNanos();
        if (elapsedNanos < 0)
            return line + "; warm-up, the measured schedule starts in " + Durations.format(ceilSeconds(-elapsedNanos));
        if (elapsedNanos < durationNanos)
            return line + "; attack " + elapsedNanos / 1_000_000_000L + "s of " + Durations.format(durationNanos);
        return line + "; the " + Durations.format(durationNanos) + " schedule is over, waiting for the last responses and the reports";
    }

    private static long ceilSeconds(long nanos) { return (nanos + 999_999_999L) / 1_000_000_000L * 1_000_000_000L; }

    /** The command line's arguments without those the parent keeps for itself (both {@code --opt v} and {@code --opt=v}). */
    static List<String> workerArgs(List<String> original) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < original.size(); i++) {
            String a = original.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (a.equals("--quiet")) continue;
            if (PARENT_ONLY.contains(name)) {
                if (!a.contains("=")) i++;   // its value follows
                continue;
            }
            out.add(a);
        }
        return out;
    }

    /** This JVM's java, flags and class path, running blocklab's main class: the workers run the same build. */
    static List<String> javaCommand() {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>();
        command.add(java);
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments())
            if (!arg.startsWith("-agentlib") && !arg.startsWith("-javaagent")) command.add(arg);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "attack"));
        return command;
    }

    private static String workersText(Table shards) {
        StringBuilder b = new StringBuilder("Workers [shard, requests, unsent, late sends, max late ms, p99 ms, instrument]\n");
        for (List<String> row : shards.rows())
            b.append(String.format(Locale.ROOT, "  %s%n", String.join(", ", row.subList(0, 1)) + ", "
                    + String.join(", ", row.subList(2, row.size())) + (row.getFirst().equals("-") ? " " + row.get(1) : "")));
        return b.toString();
    }

}
