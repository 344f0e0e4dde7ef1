package dev.blocklab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;

/** {@code blocklab}: the entry point. */
@Command(name = "blocklab", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "A laboratory for blocking and non-blocking concurrency on the JVM.",
        subcommands = {
                RunCommand.class,
                ReproduceCommand.class,
                ReportCommand.class,
                ModelsCommand.class,
                WorkloadsCommand.class,
                ServeCommand.class,
                BackendCommand.class,
                AttackCommand.class,
                K8sJobCommand.class,
                CapacityCommand.class,
                AdviseCommand.class,
                CompletionCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Examples:",
                "  blocklab reproduce                      # the three in-process seed experiments, quick scale",
                "  blocklab run --workload hundred-calls --model fixed:8 --model virtual",
                "  blocklab models", "  blocklab <command> --help",
                "  source <(blocklab completion)           # tab completion of commands and options in bash or zsh"})
public final class Main implements Runnable {
    /** Exit code for bad input: unknown names, malformed files, out-of-range numbers. */
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (!Arrays.asList(args).contains("--verbose")) {
            // a thread the lab does not own that dies of the JVM's limits (out of heap, out of threads) is one line
            Thread.UncaughtExceptionHandler jvmDefault = Thread.getDefaultUncaughtExceptionHandler();
            Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
                if (e instanceof VirtualMachineError) System.err.println("blocklab: thread " + thread.getName() + " died: " + e);
                else if (jvmDefault != null) jvmDefault.uncaughtException(thread, e);
                else {   // what the JVM prints without a handler (ThreadGroup's would call this handler again)
                    System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                    e.printStackTrace(System.err);
                }
            });
        }
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns its exit code; used by tests. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        everyCommandKnowsTheVersion(cl);
        cl.setExpandAtFiles(false);   // '@FILE' is ours to read (attack --body @req.json), not picocli's argument file
        // help as wide as the text reports (the terminal, or 120 columns), so examples stay on one line to copy
        cl.setUsageHelpWidth(Math.max(80, Math.min(200, TextWidth.columns(false))));
        // picocli's own help command, with examples like every other command
        cl.getSubcommands().get("help").getCommandSpec().usageMessage().footer("", "Examples:",
                "  blocklab help run           # the same as 'blocklab run --help'",
                "  blocklab help               # the commands, as 'blocklab --help'");
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("blocklab: " + usageMessage(ex));
            String path = commandPath(ex.getCommandLine());
            err.println("Try 'blocklab " + (path.isEmpty() ? "" : path + " ") + "--help'.");
            return EXIT_USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            Throwable root = ex instanceof CommandLine.ExecutionException && ex.getCause() != null ? ex.getCause() : ex;
            boolean usage = root instanceof IllegalArgumentException || root instanceof UsageException
                    || root instanceof UnsupportedOperationException;
            err.println("blocklab: " + (root.getMessage() == null ? root.toString() : root.getMessage()));
            if (verbose(commandLine)) root.printStackTrace(err);
            else if (!usage) err.println("(run again with --verbose for the stack trace)");
            err.flush();
            return usage ? EXIT_USAGE : 1;
        });
        return cl.execute(args);
    }

    /**
     * picocli's message without its own "Error: " prefix (ours is "blocklab: "), and for a mistyped command or
     * option the nearest names picocli finds.
     */
    static String usageMessage(CommandLine.ParameterException ex) {
        List<String> unknown = ex.getCommandLine() == null ? List.of() : ex.getCommandLine().getUnmatchedArguments();
        if (ex instanceof CommandLine.MissingParameterException && !unknown.isEmpty())
            // a misspelled required option (--modle) is first reported as missing; name the misspelling instead
            return usageMessage(new CommandLine.UnmatchedArgumentException(ex.getCommandLine(), unknown));
        String message = ex.getMessage() == null ? ex.toString() : ex.getMessage();
        if (message.startsWith("Error: ")) message = message.substring("Error: ".length());
        if (ex instanceof CommandLine.UnmatchedArgumentException unmatched) {
            List<String> args = unmatched.getUnmatched();
            boolean command = unmatched.getCommandLine().getParent() == null && !args.isEmpty() && !args.getFirst().startsWith("-");
            if (command) message = "unknown command '" + args.getFirst() + "'";
            List<String> near = unmatched.getSuggestions().stream().filter(s -> near(args.getFirst(), s)).toList();
            if (!near.isEmpty()) message += "; did you mean " + nearest(args.getFirst(), near) + "?";
        }
        return message;
    }

    /**
     * Of picocli's suggestions for a mistyped word, one that starts with it ({@code --repeat}: {@code --repeats},
     * not {@code --requests}), else picocli's first.
     */
    static String nearest(String typed, List<String> suggestions) {
        String word = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        return suggestions.stream().filter(s -> s.startsWith(word)).findFirst().orElse(suggestions.getFirst());
    }

    /**
     * True when {@code suggestion} is near enough to {@code typed} to be offered: picocli offers a name for any
     * word (for 'nosuchcommand', 'completion'); a suggestion within a third of the word's letters in edits (at
     * least 2), or one that starts with it, is kept.
     */
    static boolean near(String typed, String suggestion) {
        String word = (typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed).replaceFirst("^-+", "");
        String name = suggestion.replaceFirst("^-+", "");
        return name.startsWith(word) || editDistance(word, name) <= Math.max(2, word.length() / 3);
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++)
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
            int[] t = prev; prev = cur; cur = t;
        }
        return prev[b.length()];
    }

    /** Every subcommand's --help offers -V/--version (the standard help options): make it print the version too. */
    private static void everyCommandKnowsTheVersion(CommandLine cl) {
        for (CommandLine sub : cl.getSubcommands().values()) {
            if (sub.getCommandSpec().versionProvider() == null) sub.getCommandSpec().versionProvider(new Version());
            everyCommandKnowsTheVersion(sub);
        }
    }

    /** Whether the command that failed was given {@code --verbose} (its {@link SharedOptions.Console}). */
    private static boolean verbose(CommandLine failed) {
        CommandLine.Model.OptionSpec verbose = failed.getCommandSpec().findOption("--verbose");
        return verbose != null && Boolean.TRUE.equals(verbose.getValue());
    }

    private static String commandPath(CommandLine cl) {
        String name = cl.getCommandSpec().qualifiedName(" ");
        return name.startsWith("blocklab ") ? name.substring("blocklab ".length()) : "";
    }

    @Override public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Bad input that is not an IllegalArgumentException, such as an unreadable file. */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) { super(message); }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() {
            return new String[]{"blocklab " + projectVersion() + " on Java " + Runtime.version()};
        }

        /** The version the build wrote into version.properties (the pom's project version). */
        static String projectVersion() {
            try (var in = Main.class.getResourceAsStream("version.properties")) {
                if (in == null) throw new IllegalStateException("version.properties is missing from the build");
                java.util.Properties p = new java.util.Properties();
                p.load(in);
                return p.getProperty("version");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
