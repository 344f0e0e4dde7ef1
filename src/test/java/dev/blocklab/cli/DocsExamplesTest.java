package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs check: every {@code blocklab} command line in a fenced code block of README.md and docs/*.md is parsed
 * by the real command tree (picocli's parser, nothing run), so an example naming a command, an option or a
 * choice that no longer exists fails here. Launcher-only commands ({@code test}, {@code bench}, {@code class}) pass through.
 */
class DocsExamplesTest {
    record Example(String where, List<String> args) {}


    static List<Example> examples() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Example> examples = new ArrayList<>();
        for (Path file : files) {
            List<String> lines = Files.readAllLines(file);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("```")) { fenced = !fenced; continue; }
                if (!fenced) continue;
                int at = i + 1;
                while (line.endsWith("\\") && i + 1 < lines.size()) line = line.substring(0, line.length() - 1) + " " + lines.get(++i).strip();
                if (line.startsWith("$ ")) line = line.substring(2);
                // a shell line may chain commands (backend --port 9100 & blocklab serve ...): each blocklab one counts
                List<String> words = words(line);
                List<String> args = null;
                boolean ended = false;   // past a pipe or a redirection: the rest of this command is not blocklab's
                for (String w : words) {
                    if (w.equals("&") || w.equals("&&") || w.equals(";")) {
                        if (args != null) examples.add(new Example(file + ":" + at, args));
                        args = null;
                        ended = false;
                    } else if (args == null && !ended) {
                        if (w.equals("blocklab") || w.equals("./blocklab")) args = new ArrayList<>();
                        else ended = true;
                    } else if (args != null && args.isEmpty() && w.endsWith(":")) {
                        args = null;   // a message the lab prints ('blocklab serve: the stop's ...'), not a command
                        ended = true;
                    } else if (w.equals("|") || w.equals(">") || w.equals(">>") || w.equals("2>&1")) {
                        if (args != null) examples.add(new Example(file + ":" + at, args));
                        args = null;
                        ended = true;
                    } else if (args != null) {
                        args.add(w);
                    }
                }
                if (args != null) examples.add(new Example(file + ":" + at, args));
            }
        }
        return examples;
    }

    /** Shell words: single and double quotes, and a comment from an unquoted '#' that starts a word. */
    static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quote != 0) {
                if (ch == quote) quote = 0;
                else word.append(ch);
            } else if (ch == '\'' || ch == '"') {
                if (word == null) word = new StringBuilder();
                quote = ch;
            } else if (Character.isWhitespace(ch)) {
                if (word != null) words.add(word.toString());
                word = null;
            } else if (ch == '#' && word == null) {
                break;
            } else {
                if (word == null) word = new StringBuilder();
                word.append(ch);
            }
        }
        if (word != null) words.add(word.toString());
        return words;
    }

    @Test void words_quotesAndComments() {
        assertThat(words("./blocklab attack URL --fail-if 'p99>600ms' --header \"A: b\"   # a comment"))
                .containsExactly("./blocklab", "attack", "URL", "--fail-if", "p99>600ms", "--header", "A: b");
    }

    @Test void examples_chainedCommandsCountEach_pipesAndRedirectionsEndOne() throws IOException {
        assertThat(examples()).anySatisfy(e -> assertThat(e.args()).containsExactly("backend", "--port", "9100"))
                .anySatisfy(e -> assertThat(e.args()).containsExactly("serve", "--profile", "virtual", "--backend-url", "http://127.0.0.1:9100"));
        assertThat(examples()).noneMatch(e -> e.args().contains("&") || e.args().contains(">") || e.args().contains("|"));
    }

    @Test void docs_haveExamples() throws IOException {
        assertThat(examples()).hasSizeGreaterThan(30);
    }

    @Test void everyDocumentedCommandLine_parses() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Example e : examples()) {
            if (!e.args().isEmpty() && List.of("test", "bench", "class").contains(e.args().getFirst())) continue;
            CommandLine cl = new CommandLine(new Main());
            cl.setExpandAtFiles(false);
            try {
                cl.parseArgs(e.args().toArray(String[]::new));
            } catch (CommandLine.ParameterException ex) {
                problems.add(e.where() + ": blocklab " + String.join(" ", e.args()) + "\n    " + ex.getMessage());
            }
        }
        assertThat(problems).as("documented command lines that do not parse").isEmpty();
    }
}
