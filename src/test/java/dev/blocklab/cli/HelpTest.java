package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command's and subcommand's {@code --help} through {@link Main}, and the one-line usage errors. */
class HelpTest {
    /** The path of every command under blocklab, found by walking picocli's tree (so a new command is covered). */
    static List<String> commands() {
        List<String> paths = new ArrayList<>();
        walk(new CommandLine(new Main()), "", paths);
        return paths;
    }

    private static void walk(CommandLine cl, String path, List<String> paths) {
        paths.add(path);
        cl.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().name().equals(name))
                walk(sub, (path + " " + name).strip(), paths);
        });
    }

    @Test void commands_coverEveryTopLevelCommand() {
        assertThat(commands()).contains("", "run", "reproduce", "report", "models", "workloads", "serve", "backend", "attack", "completion", "help");
    }

    @ParameterizedTest(name = "blocklab {0} --help")
    @MethodSource("commands")
    void help_everyCommand_noPicocliWarningAndEndsInExamples(String path) {
        List<String> args = new ArrayList<>(path.isEmpty() ? List.of() : Arrays.asList(path.split(" ")));
        args.add("--help");
        Cli.Run o = Cli.run(args.toArray(String[]::new));
        assertThat(o.exit()).isZero();
        assertThat(o.err()).as("stderr of blocklab %s --help", path).isEmpty();
        assertThat(o.out()).doesNotContain("picocli WARN").doesNotContain("%n").contains("Usage: blocklab");
        assertThat(o.out()).as("an Examples section").contains("\nExamples:\n");
        String examples = o.out().substring(o.out().lastIndexOf("Examples:"));
        assertThat(examples.lines().skip(1).filter(l -> !l.isBlank())).as("examples of blocklab %s", path).isNotEmpty();
        java.util.regex.Matcher file = java.util.regex.Pattern.compile("examples/[\\w./-]+").matcher(examples);
        while (file.find())   // an example to copy that names a file the repository does not have fails as written
            assertThat(java.nio.file.Path.of(file.group())).as("a file named in the examples of blocklab %s", path).exists();
        if (TextWidth.columns(false) >= TextWidth.DEFAULT_COLUMNS)   // at 120 columns no example wraps
            assertThat(examples.lines().skip(1).filter(l -> !l.isBlank()))
                    .as("examples of blocklab %s, one a line", path).allMatch(l -> l.startsWith("  "));
    }

    @Test void mistypedCommand_suggestsTheNearestAndOneHelpHint() {
        Cli.Run o = Cli.run("reproduc");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("did you mean reproduce?").contains("Try 'blocklab --help'.").doesNotContain("  --help");
    }

    @Test void aTimeScaleThatRoundsEveryDelayAway_isRefusedInOneLine() {
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--time-scale", "2000000000");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err().strip()).isEqualTo("blocklab: --time-scale must be at most 1000000 (a second becomes a microsecond), got 2000000000");
    }

    @Test void unknownCommandFarFromEveryName_suggestsNone() {
        Cli.Run o = Cli.run("nosuchcommand");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("unknown command 'nosuchcommand'").doesNotContain("did you mean");
    }

    @Test void mistypedOption_suggestsTheNearest() {
        Cli.Run o = Cli.run("reproduce", "--ful");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("--full").contains("Try 'blocklab reproduce --help'.");
    }

    @Test void mistypedRequiredOption_namesTheMisspellingNotAMissingOption() {
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--modle", "virtual");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("'--modle'").contains("did you mean --model?").doesNotContain("Missing required");
    }

    @Test void mistypedOption_prefersTheNameItBegins() {
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--model", "virtual", "--repeat", "1");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).contains("did you mean --repeats?");
    }

    @Test void subcommandVersion_printsTheVersionAsTheTopLevelDoes() {
        String top = Cli.run("--version").out();
        assertThat(top).startsWith("blocklab ");
        assertThat(Cli.run("run", "-V").out()).isEqualTo(top);
        assertThat(Cli.run("attack", "--version").out()).isEqualTo(top);
    }

    @Test void exclusiveOptions_oneBlocklabPrefix() {
        Cli.Run o = Cli.run("reproduce", "--quick", "--full");
        assertThat(o.exit()).isEqualTo(Main.EXIT_USAGE);
        assertThat(o.err()).startsWith("blocklab: --quick, --full are mutually exclusive").doesNotContain("Error:");
    }

    @Test void version_isTheProjectVersionFromTheBuild() {
        Cli.Run o = Cli.run("--version");
        assertThat(o.exit()).isZero();
        assertThat(o.out()).matches("(?s)blocklab \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? on Java .*").doesNotContain("dev").doesNotContain("${");
    }

    @Test void serveAndBackend_acceptQuietAndVerbose() {
        for (String command : List.of("serve", "backend")) {
            CommandLine cl = new CommandLine(new Main()).getSubcommands().get(command);
            assertThat(cl.getCommandSpec().findOption("--quiet")).as(command + " --quiet").isNotNull();
            assertThat(cl.getCommandSpec().findOption("--verbose")).as(command + " --verbose").isNotNull();
        }
    }

    @Test void models_haveTheColumnTheirHelpPromises() {
        Cli.Run help = Cli.run("models", "--help");
        assertThat(help.out()).contains("'runs here'");
        Cli.Run o = Cli.run("models");
        assertThat(o.out().lines().findFirst().orElseThrow()).contains("model").contains("runs here");
        // every entry's line has the columns; a long description continues on indented lines of its own
        assertThat(o.out().lines().skip(1).filter(l -> !l.startsWith(" "))).hasSize(dev.blocklab.registry.Registry.all().size())
                .allMatch(l -> l.matches("\\S+\\s+(model|variant)\\s+(yes|no)\\s+.+"));
    }

    @Test void workloads_singularForOneCall() {
        Cli.Run o = Cli.run("workloads");
        assertThat(o.out()).contains("1 call,").doesNotContain(" 1 calls");
    }

    @Test void completion_printsABashScriptCoveringEveryCommand() {
        Cli.Run o = Cli.run("completion");
        assertThat(o.exit()).isZero();
        assertThat(o.err()).isEmpty();
        assertThat(o.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_blocklab");
        for (String command : List.of("run", "reproduce", "report", "models", "workloads", "serve", "backend", "attack", "completion"))
            assertThat(o.out()).as(command).contains(command);
        assertThat(o.out()).contains("--workload").contains("--wide");
    }
}
