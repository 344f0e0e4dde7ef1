package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The docs check that runs: every {@code blocklab} command line of README.md and docs/*.md (as
 * {@link DocsExamplesTest} finds them) is executed in process at a quick time scale and must exit 0 (or the exit
 * code its example documents, 1 for a failed threshold) without a stack trace. Rewrites, so the check stays in
 * minutes: delays divided by 100 ({@code --time-scale 100}, {@code --full} dropped), durations cut to 1 s,
 * batches capped at 1,000 requests, output files and {@code report}'s inputs moved to a temporary directory.
 * Commands left out are listed with their reason in {@link #NOT_RUN}; the test prints the tally.
 *
 * <p>Opt-in ({@code -Dblocklab.docs.run=true}), run by {@code .ci/run} after the test suite: 36 examples in 325 s at
 * load 2 to 5 on the 2-core machine, before a command line documented twice was run once ({@code reproduce
 * frameworks} alone took 314 s even at delays / 100, so it is among the heavy ones left out).
 */
class DocsExamplesIT {
    @TempDir Path dir;

    /** First words of examples not run here, and why. */
    static final Map<String, String> NOT_RUN = Map.of(
            "test", "the launcher's test command is what CI itself runs",
            "bench", "builds the JMH jar (a separate Maven profile); docs/benchmarks.md",
            "serve", "a server that runs until stopped: ServeCommandTest and the server ITs start it",
            "backend", "a server that runs until stopped: BackendServer tests start it",
            "attack", "needs a server on 127.0.0.1:9000 and seconds of load each; AttackCommandTest runs the same options",
            "class", "the launcher's way to run another main class of the jar (a test target); AttackCommandTest starts TrivialServer",
            "capacity", "a rate search in real time, steps of seconds at every rate and entry; CapacityCommandTest runs it at small steps",
            "advise", "the capacity search in real time; CapacityCommandTest runs it at small steps");
    /** Experiments too long for a docs check even at delays / 100 (a rate search, a million jobs, real databases, Pekko). */
    static final Set<String> HEAVY = Set.of("frameworks", "frameworks-capacity", "million-jobs", "database", "profile-page-pekko", "frameworks-servlet");

    record Exit(int code, String out, String err) {}

    static Exit blocklab(List<String> args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Exit(code, out.toString(), err.toString());
    }

    /** The example's arguments made quick and pointed at {@code dir}. */
    List<String> quick(List<String> args, Path results) {
        List<String> out = new ArrayList<>();
        String command = args.getFirst();
        boolean measures = command.equals("run") || command.equals("reproduce");
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String next = i + 1 < args.size() ? args.get(i + 1) : null;
            if (measures && (a.equals("--full") || a.equals("--quick"))) continue;
            if (measures && a.equals("--time-scale") && next != null) { i++; continue; }
            if (a.equals("--duration") && next != null) { out.add(a); out.add("1s"); i++; continue; }
            if (a.equals("--requests") && next != null && next.matches("[0-9]+")) { out.add(a); out.add(String.valueOf(Math.min(1000, Long.parseLong(next)))); i++; continue; }
            if ((a.equals("--out") || a.equals("--html") || a.equals("--save")) && next != null) {
                out.add(a);
                out.add(dir.resolve(Path.of(next).getFileName().toString()).toString());
                i++;
                continue;
            }
            if (command.equals("report") && i > 0 && !a.startsWith("-") && a.endsWith(".jsonl")) { out.add(results.toString()); continue; }
            out.add(a);
        }
        if (measures) {
            out.addAll(List.of("--time-scale", "100"));
            if (!out.contains("--save")) out.addAll(List.of("--save", dir.resolve("saved-" + out.size() + ".jsonl").toString()));
        }
        return out;
    }

    @Test void everyDocumentedCommandLine_runsAtAQuickScale() throws Exception {
        assumeTrue(Boolean.getBoolean("blocklab.docs.run"), "opt-in: -Dblocklab.docs.run=true");
        // a saved run for the report examples
        Path results = dir.resolve("fixture.jsonl");
        assertThat(blocklab(List.of("run", "--workload", "task-graph", "--model", "fixed:2", "--model", "virtual", "--time-scale", "100",
                "--warmups", "0", "--repeats", "1", "--quiet", "--save", results.toString())).code()).isZero();
        List<String> problems = new ArrayList<>();
        List<String> notRun = new ArrayList<>();
        Map<String, String> ranAlready = new java.util.HashMap<>();   // a command line documented twice runs once
        int ran = 0;
        for (DocsExamplesTest.Example e : DocsExamplesTest.examples()) {
            if (e.args().isEmpty()) continue;
            String command = e.args().getFirst();
            if (NOT_RUN.containsKey(command)) { notRun.add(e.where() + " " + command + ": " + NOT_RUN.get(command)); continue; }
            if (command.equals("reproduce") && e.args().stream().anyMatch(HEAVY::contains)) {
                notRun.add(e.where() + " reproduce " + e.args().get(1) + ": too long for a docs check; its own test runs it at a small size");
                continue;
            }
            if (e.args().contains("my.yaml")) { notRun.add(e.where() + ": names the reader's own workload file (my.yaml)"); continue; }
            if (command.equals("report") && e.args().contains("--merge")) {
                notRun.add(e.where() + " report --merge: needs the shard files of a sharded attack; ShardCommandsTest merges real ones");
                continue;
            }
            List<String> args = quick(e.args(), results);
            String same = ranAlready.putIfAbsent(String.join(" ", args), e.where());
            if (same != null) { notRun.add(e.where() + ": the same command line as " + same + ", run once"); continue; }
            long start = System.nanoTime();
            Exit exit = blocklab(args);
            ran++;
            long millis = (System.nanoTime() - start) / 1_000_000;
            boolean thresholdExample = args.contains("--fail-if");
            if (!(exit.code() == 0 || thresholdExample && exit.code() == 1) || exit.err().contains("\tat ") || exit.err().contains("Exception in"))
                problems.add(e.where() + ": blocklab " + String.join(" ", args) + " -> exit " + exit.code() + "\n    "
                        + exit.err().lines().filter(l -> !l.startsWith("... ")).limit(5).reduce((a, b) -> a + "\n    " + b).orElse(""));
            System.out.println("docs example " + e.where() + " (" + millis + " ms): blocklab " + String.join(" ", args) + " -> " + exit.code());
        }
        System.out.println("docs examples: " + ran + " run, " + notRun.size() + " not run:\n  " + String.join("\n  ", notRun));
        assertThat(ran).isGreaterThan(20);
        assertThat(problems).as("documented command lines that fail when run").isEmpty();
    }
}
