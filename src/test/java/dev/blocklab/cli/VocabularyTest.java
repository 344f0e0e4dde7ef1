package dev.blocklab.cli;

import dev.blocklab.Defaults;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One vocabulary across the commands: every option of every command is drawn from {@link #VOCABULARY} (one name,
 * one parameter label, one meaning), an option that several commands share is described the same way in all of
 * them unless listed in {@link #SAME_CONCEPT_OWN_WORDS}, and the former names are hidden but still parse.
 */
class VocabularyTest {
    /** Every visible option name and its parameter label ("" for a switch). */
    static final Map<String, String> VOCABULARY = new TreeMap<>(Map.ofEntries(
            // what to run and how long
            Map.entry("--workload", "NAME|FILE"), Map.entry("--model", "MODEL"), Map.entry("--requests", "N"),
            Map.entry("--users", "N"), Map.entry("--rate", "RATE"), Map.entry("--duration", "D"), Map.entry("--timeout", "D"),
            Map.entry("--warmups", "N"), Map.entry("--repeats", "N"), Map.entry("--spare-threads", "N"),
            Map.entry("--quick", ""), Map.entry("--full", ""),
            // the shared mixins
            Map.entry("--time-scale", "N"), Map.entry("--seed", "N"), Map.entry("--quiet", ""), Map.entry("--verbose", ""),
            Map.entry("--save", "FILE"), Map.entry("--html", "FILE"), Map.entry("--wide", ""),
            Map.entry("--host", "ADDRESS"), Map.entry("--port", "N"),
            // where downstream calls go
            Map.entry("--backend", "KIND"), Map.entry("--backend-url", "URL"), Map.entry("--postgres-url", "URL"),
            Map.entry("--redis-url", "URL"), Map.entry("--db-pool", "N"), Map.entry("--redis-pool", "N"), Map.entry("--pool-timeout", "D"),
            Map.entry("--pg-async-client", "CLIENT"),
            // reports
            Map.entry("--format", "FORMAT"), Map.entry("--out", "FILE"), Map.entry("--title", "TEXT"), Map.entry("--timestamp", "TEXT"),
            // the auditor
            Map.entry("--audit", ""), Map.entry("--audit-threshold", "D"), Map.entry("--audit-stall", "D"), Map.entry("--fail-if", "COND"),
            // serve and backend
            Map.entry("--profile", "PROFILE"), Map.entry("--queue", "N"), Map.entry("--admission", "POLICY"),
            Map.entry("--route", "ROUTE"), Map.entry("--routes", "FILE"), Map.entry("--event-loops", "N"),
            // attack
            Map.entry("--targets", "FILE"), Map.entry("--step", "D"), Map.entry("--request-timeout", "D"), Map.entry("--max-connections", "N"),
            Map.entry("--method", "METHOD"), Map.entry("--header", "'K: V'"), Map.entry("--body", "@FILE|TEXT"),
            Map.entry("--responses", "FILE"), Map.entry("--hlog", "FILE"), Map.entry("--client", "CLIENT"),
            Map.entry("--late-threshold", "D"), Map.entry("--warmup", "D"), Map.entry("--calibrate", ""),
            // sharded attacks and their Kubernetes Job
            Map.entry("--shard", "I/N"), Map.entry("--start-at", "TIME"), Map.entry("--workers", "N"), Map.entry("--merge", ""),
            Map.entry("--image", "IMAGE"), Map.entry("--name", "NAME"), Map.entry("--namespace", "NS"), Map.entry("--start-in", "D"),
            Map.entry("--cpu", "CORES"),
            // capacity and advise
            Map.entry("--entry", "ENTRY"), Map.entry("--slo", "OBJECTIVE"), Map.entry("--start-rate", "RATE"), Map.entry("--max-rate", "RATE"),
            Map.entry("--factor", "F"), Map.entry("--bisections", "N"), Map.entry("--memory", "BYTES"), Map.entry("--volume-claim", "PVC"), Map.entry("--merge-job", "FILE")));

    /** Where a command's label says it accepts less than the concept: {@code "command --name"} and its label. */
    static final Map<String, String> OWN_LABELS = Map.of(
            "serve --workload", "FILE");  // serve serves the built-in workloads already: only files are added

    /** Former names, hidden from help, still accepted for a release: {@code "command --name"}. */
    static final Set<String> HIDDEN_ALIASES = Set.of("attack --output", "run --db", "serve --db");

    /**
     * Options that several commands share with the same name and meaning but whose accepted values or defaults
     * differ per command, so their help says so in the command's own words.
     */
    static final Set<String> SAME_CONCEPT_OWN_WORDS = Set.of(
            "--format",      // each command lists the formats it writes
            "--backend",     // reproduce: simulated or http; run and serve: simulated, postgres, redis
            "--workload",    // run: the one to run; serve: files served beside the built-in ones
            "--duration", "--timeout", "--users", "--rate", "--step",   // run (in process, scaled) and attack (HTTP, real time)
            "--entry",       // capacity: the entries to search; advise: the ones to compare instead of its defaults
            "--repeats",     // run: measured runs of one arrival; capacity: runs per rate tried
            "--out",         // report: the rendered report; k8s-job: the Job's YAML
            "--start-at", "--workers",   // attack: this process's shards; k8s-job: the pods'
            "--fail-if");    // attack's conditions on latency and errors; the auditor's on findings

    record Use(String command, OptionSpec option) {}

    static List<Use> uses() {
        List<Use> uses = new ArrayList<>();
        new CommandLine(new Main()).getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().name().equals(name)) return;
            for (OptionSpec o : sub.getCommandSpec().options())
                if (!o.usageHelp() && !o.versionHelp()) uses.add(new Use(name, o));
        });
        return uses;
    }

    @Test void everyVisibleOption_isInTheVocabulary_withItsOneLabel() {
        List<String> strays = new ArrayList<>();
        for (Use u : uses()) {
            if (u.option().hidden()) continue;
            String name = u.option().longestName();
            String label = u.option().typeInfo().isBoolean() ? "" : u.option().paramLabel();
            if (!VOCABULARY.containsKey(name)) strays.add(u.command() + " " + name + " (not in the vocabulary)");
            else if (!OWN_LABELS.getOrDefault(u.command() + " " + name, VOCABULARY.get(name)).equals(label))
                strays.add(u.command() + " " + name + " " + label + " (the vocabulary says " + VOCABULARY.get(name) + ")");
        }
        assertThat(strays).isEmpty();
    }

    @Test void everyHiddenOption_isAFormerNameListedHere() {
        Set<String> hidden = new TreeSet<>();
        for (Use u : uses()) if (u.option().hidden()) hidden.add(u.command() + " " + u.option().longestName());
        assertThat(hidden).containsExactlyInAnyOrderElementsOf(HIDDEN_ALIASES);
        for (String alias : HIDDEN_ALIASES) assertThat(VOCABULARY).doesNotContainKey(alias.split(" ")[1]);
    }

    @Test void aSharedOption_isDescribedOnce() {
        Map<String, Set<String>> descriptions = new TreeMap<>();
        for (Use u : uses())
            if (!u.option().hidden() && !SAME_CONCEPT_OWN_WORDS.contains(u.option().longestName()))
                descriptions.computeIfAbsent(u.option().longestName(), n -> new TreeSet<>()).add(String.join(" ", u.option().description())
                        .replaceAll(" ?\\(default: [^)]*\\)", ""));
        descriptions.values().removeIf(set -> set.size() == 1);
        assertThat(descriptions).as("options with one name and several descriptions").isEmpty();
    }

    @Test void everyCommand_hasQuietAndVerbose_andMeansThem() {
        Set<String> withConsole = new TreeSet<>();
        for (Use u : uses()) if (u.option().longestName().equals("--verbose")) withConsole.add(u.command());
        assertThat(withConsole).containsExactlyInAnyOrder("run", "reproduce", "report", "serve", "backend", "attack", "capacity", "advise",
                "models", "workloads", "completion", "k8s-job");
    }

    @Test void everyCommandThatReports_hasFormat() {
        Set<String> withFormat = new TreeSet<>();
        for (Use u : uses()) if (u.option().longestName().equals("--format")) withFormat.add(u.command());
        // advise: text or json, like the other commands that measure
        assertThat(withFormat).containsExactlyInAnyOrder("run", "reproduce", "report", "attack", "capacity", "advise");
    }

    @Test void defaults_comeFromTheDefaultsClass_perCommand() {
        CommandLine root = new CommandLine(new Main());
        assertThat(root.getSubcommands().get("serve").getCommandSpec().findOption("--port").defaultValueString())
                .isEqualTo("" + Defaults.SERVE_PORT);
        assertThat(root.getSubcommands().get("backend").getCommandSpec().findOption("--port").defaultValueString())
                .isEqualTo("" + Defaults.BACKEND_PORT);
        // every command that draws latencies starts from the same seed, also through a mixin inside a mixin (capacity, advise)
        root.getSubcommands().forEach((name, sub) -> {
            var seed = sub.getCommandSpec().findOption("--seed");
            if (seed != null) assertThat(seed.defaultValueString()).as(name + " --seed").isEqualTo("" + Defaults.SEED);
        });
        assertThat(root.getSubcommands().get("reproduce").getCommandSpec().findOption("--time-scale").defaultValueString())
                .isEqualTo("" + Defaults.QUICK_TIME_SCALE);
        assertThat(root.getSubcommands().get("run").getCommandSpec().findOption("--time-scale").defaultValueString())
                .isEqualTo("" + Defaults.TIME_SCALE);
        assertThat(root.getSubcommands().get("run").getCommandSpec().findOption("--timeout").defaultValueString()).isIn(null, "null");
        assertThat(root.getSubcommands().get("attack").getCommandSpec().findOption("--timeout").defaultValueString())
                .isEqualTo(Defaults.ATTACK_TIMEOUT);
    }

    @Test void docsAndHelp_useTheCurrentNames_notTheFormerOnes() throws Exception {
        List<String> former = new ArrayList<>();
        for (DocsExamplesTest.Example e : DocsExamplesTest.examples()) {
            if (e.args().isEmpty() || List.of("test", "bench", "class").contains(e.args().getFirst())) continue;
            CommandLine cl = new CommandLine(new Main());
            cl.setExpandAtFiles(false);
            CommandLine.ParseResult parsed = cl.parseArgs(e.args().toArray(String[]::new));
            for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand())
                for (OptionSpec o : p.matchedOptions())
                    if (o.hidden()) former.add(e.where() + ": " + o.longestName());
        }
        assertThat(former).as("documented command lines with a former option name").isEmpty();
        for (String alias : HIDDEN_ALIASES) {
            String[] words = alias.split(" ");
            String footer = String.join("\n", new CommandLine(new Main()).getSubcommands().get(words[0]).getCommandSpec().usageMessage().footer());
            assertThat(footer).as(words[0] + "'s examples").doesNotContain(words[1] + " ");
        }
    }

    @Test void closingLines_oneWording_andNoneWithQuiet(@org.junit.jupiter.api.io.TempDir Path tmp) {
        Path save = tmp.resolve("r.jsonl"), html = tmp.resolve("r.html");
        String[] args = {"run", "--workload", "task-graph", "--model", "virtual", "--time-scale", "100", "--warmups", "0",
                "--repeats", "1", "--format", "json", "--save", save.toString(), "--html", html.toString()};
        java.io.StringWriter out = new java.io.StringWriter(), err = new java.io.StringWriter();
        assertThat(Main.execute(args, new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true))).isZero();
        assertThat(err.toString().lines().filter(l -> !l.startsWith("... ")))
                .containsExactly("results saved to " + save, "HTML report saved to " + html);

        List<String> quiet = new ArrayList<>(List.of(args));
        quiet.add("--quiet");
        java.io.StringWriter quietErr = new java.io.StringWriter();
        assertThat(Main.execute(quiet.toArray(String[]::new), new java.io.PrintWriter(new java.io.StringWriter(), true),
                new java.io.PrintWriter(quietErr, true))).isZero();
        assertThat(quietErr.toString()).isEmpty();

        // the quiet run wrote to the same --save: the first run's results were kept beside it, and a third run says so
        java.io.StringWriter againErr = new java.io.StringWriter();
        assertThat(Main.execute(args, new java.io.PrintWriter(new java.io.StringWriter(), true), new java.io.PrintWriter(againErr, true))).isZero();
        assertThat(againErr.toString().lines().filter(l -> !l.startsWith("... ")))
                .contains("results saved to " + save + " (its earlier results kept as " + save + ".previous)");
        assertThat(tmp.resolve("r.jsonl.previous")).exists();
    }

    @Test void count_agreesInNumber() {
        assertThat(Words.count(1, "run")).isEqualTo("1 run");
        assertThat(Words.count(0, "run")).isEqualTo("0 runs");
        assertThat(Words.count(2, "platform thread")).isEqualTo("2 platform threads");
        assertThat(Words.inWords(List.of("a", "b", "c"))).isEqualTo("a, b and c");
        assertThat(Words.inWords(List.of("a"))).isEqualTo("a");
    }

    @Test void formerNames_stillParse() {
        CommandLine root = new CommandLine(new Main());
        root.parseArgs("attack", "http://127.0.0.1:1/", "--output", "hits.csv");
        CommandLine attack = root.getSubcommands().get("attack");
        assertThat(((AttackCommand) attack.getCommand()).responses).isEqualTo(Path.of("hits.csv"));

        CommandLine again = new CommandLine(new Main());
        again.parseArgs("serve", "--db", "postgres,redis", "--backend", "http://127.0.0.1:9100");
        assertThat(((ServeCommand) again.getSubcommands().get("serve").getCommand()).datastore.kinds())
                .containsExactly("http://127.0.0.1:9100", "postgres", "redis");
    }
}
