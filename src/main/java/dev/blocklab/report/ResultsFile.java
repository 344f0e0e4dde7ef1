package dev.blocklab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.blocklab.report.Jsons;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Streams rows to a JSON Lines file as they are measured, one object per line with a {@code "kind"}, each line
 * written whole in one write, so an interrupted run keeps everything measured before it stopped. At the end of
 * each experiment the whole {@link ExperimentResult} follows as one line of kind {@value #EXPERIMENT_RESULT}, which
 * {@link #read(Path)} (and so {@code blocklab report}) turns back into a result. A file nothing was written to is
 * removed when closed (a command that failed before measuring anything), so {@code blocklab report results/*.jsonl}
 * meets no empty file. A file that already holds results is not overwritten: at the first new line it is moved to
 * {@code FILE.previous} (one generation), and left as it is when nothing new is written.
 */
public final class ResultsFile implements AutoCloseable {
    /** The kind of the line that holds a whole experiment's result. */
    public static final String EXPERIMENT_RESULT = "experiment-result";
    private static final ObjectMapper MAPPER = Jsons.mapper();
    private static final ObjectMapper READER = Jsons.mapper().copy()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final Path path;
    private OutputStream out;              // guarded by this; unbuffered: each line goes to the file in one write;
                                           // null until the first line when the file holds earlier results
    private final boolean madeDirectory;   // the file's directory did not exist: removed with an empty file
    private Path keptEarlier;              // guarded by this: where the file's earlier content went, once moved
    private boolean written;               // guarded by this: a line is in the file
    private boolean closed;                // guarded by this
    private boolean removedOnSignal;       // guarded by this: see removeIfEmpty

    public ResultsFile(Path path) {
        this.path = path;
        madeDirectory = path.getParent() != null && !Files.isDirectory(path.getParent());
        try {
            if (path.getParent() != null) Files.createDirectories(path.getParent());
            if (Files.isRegularFile(path) && Files.size(path) > 0) {   // earlier results: moved aside at the first new line
                if (!Files.isWritable(path) || !Files.isWritable(path.toAbsolutePath().getParent()))
                    throw new java.nio.file.AccessDeniedException(path.toString());
            } else {
                out = Files.newOutputStream(path);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write results to " + path + ": " + dev.blocklab.TextFiles.reason(e));
        }
    }

    /** Where a file's earlier results are kept when a new run writes to it: {@code FILE.previous}. */
    static Path previous(Path file) { return file.resolveSibling(file.getFileName() + ".previous"); }

    /** Where the file's earlier results were kept ({@code FILE.previous}), once this run wrote in their place. */
    public synchronized java.util.Optional<Path> keptEarlier() { return java.util.Optional.ofNullable(keptEarlier); }

    /** {@code results/NAME-yyyyMMdd-HHmmss.jsonl} under the working directory. */
    public static Path defaultPath(String name) {
        return Path.of("results", name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".jsonl");
    }

    public synchronized void write(String kind, Object row) {
        if (removedOnSignal) return;   // the command said nothing was saved, and the JVM is stopping
        try {
            var node = MAPPER.createObjectNode();
            node.put("kind", kind);
            node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.valueToTree(row));
            if (out == null) {   // the first line: the earlier results move aside now, not when nothing may follow
                keptEarlier = previous(path);
                Files.move(path, keptEarlier, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                out = Files.newOutputStream(path);
            }
            // the whole line in one write: a process killed between two rows leaves whole lines (a buffered writer
            // wrote a line longer than its buffer in pieces, and a kill between them left half a line)
            out.write((MAPPER.writeValueAsString(node) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            written = true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results to " + path + ": " + dev.blocklab.TextFiles.reason(e), e);
        }
    }

    /** Writes the whole result as one line of kind {@value #EXPERIMENT_RESULT}. */
    public void writeResult(ExperimentResult result) { write(EXPERIMENT_RESULT, result); }

    /**
     * The kind of an attack shard's record ({@code dev.blocklab.shard.ShardRecord#KIND}), which an attack with
     * {@code --shard} and {@code --save} writes after its result: not a row of an unfinished experiment.
     */
    public static final String SHARD_RECORD = "attack-shard";

    /** The kind of the line that names the HTML page the command drew (or would draw) of the results so far. */
    public static final String PAGE = "page";

    /**
     * Records the title of the command's HTML page for the results written so far, so {@code blocklab report FILE}
     * rebuilds the same page (the last such line counts).
     */
    public void writePageTitle(String title) { write(PAGE, java.util.Map.of("title", title)); }

    /** The page title the last {@value #PAGE} line of {@code file} records; null when there is none (older files). */
    public static String pageTitle(Path file) {
        try {
            List<String> lines = dev.blocklab.TextFiles.linesOf(file, "unread").lines();
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i);
                if (!line.contains("\"" + PAGE + "\"")) continue;
                JsonNode node;
                try {
                    node = READER.readTree(line);
                } catch (IOException e) {
                    continue;   // a line cut short: an earlier one may hold the title
                }
                if (PAGE.equals(node.path("kind").asText()) && node.path("title").isTextual()) return node.path("title").asText();
            }
            return null;
        } catch (IllegalArgumentException e) {   // unreadable: read() names why
            return null;
        }
    }

    public Path path() { return path; }

    /**
     * {@link #read(Path, Consumer)} without its warnings: a last line cut short is named only in the notes of a
     * result rebuilt from the rows before it, when there is one.
     */
    public static List<ExperimentResult> read(Path file) { return read(file, warning -> {}); }

    /**
     * Why a line could not be read, in one line: a record's own check says what it refused; a field missing
     * where a record needs it is named as such, not by the NullPointerException it caused.
     */
    private static String reason(Exception e) {
        if (e instanceof com.fasterxml.jackson.databind.exc.ValueInstantiationException v && v.getCause() != null) {
            String type = v.getType().getRawClass().getSimpleName();
            return v.getCause() instanceof NullPointerException || v.getCause().getMessage() == null
                    ? "a field a " + type + " needs is missing or null" : type + ": " + v.getCause().getMessage();
        }
        return dev.blocklab.TextFiles.readProblem(e);
    }

    /** True when {@code lines} together hold one JSON object spread over several lines (a printed report). */
    private static boolean oneJsonDocument(List<String> lines) {
        if (lines.size() < 2) return false;
        try {
            return READER.readTree(String.join("\n", lines)) instanceof ObjectNode;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The results saved in {@code file}: each {@value #EXPERIMENT_RESULT} line, its rows as generic maps. The rows
     * after the last such line (all of them in a file without one: a command that was stopped) give one more result
     * rebuilt from them: a run's measurements with the standard tables and charts, any other kind (a capacity
     * search's runs, an experiment's rows) as a table of its fields; a file with neither is an error naming it. A
     * last line cut short (the writing process was stopped in the middle of it: the file does not end with a line
     * feed) is left out, and {@code warnings} is told which; any other line that is not a saved result is an error
     * naming the file and the line.
     */
    public static List<ExperimentResult> read(Path file, Consumer<String> warnings) {
        dev.blocklab.TextFiles.Lines text = dev.blocklab.TextFiles.linesOf(file, "cannot read " + file);
        List<String> lines = text.lines();
        List<ExperimentResult> results = new ArrayList<>();
        List<RunResult> runs = new ArrayList<>();   // since the last experiment-result line
        Map<String, List<ObjectNode>> others = new LinkedHashMap<>();   // the same, of every other kind, by kind
        String cut = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            try {
                JsonNode node = READER.readTree(line);
                if (!(node instanceof ObjectNode object)) throw new IllegalArgumentException("not a JSON object");
                String kind = object.path("kind").asText("");
                object.remove("kind");
                if (kind.equals(EXPERIMENT_RESULT)) {
                    for (String field : List.of("experiment", "rows", "tables", "notes"))
                        if (!object.hasNonNull(field)) throw new IllegalArgumentException("an experiment-result line without '" + field + "'");
                    results.add(READER.treeToValue(object, ExperimentResult.class));
                    runs.clear();   // they were that experiment's
                    others.clear();
                } else if (object.has("model") && object.has("wallMillis") && object.has("latencyMillis")) {
                    runs.add(READER.treeToValue(object, RunResult.class));
                } else if (!kind.isEmpty() && !kind.equals(PAGE) && !kind.equals(SHARD_RECORD)) {
                    others.computeIfAbsent(kind, k -> new ArrayList<>()).add(object);
                }
            } catch (IOException | IllegalArgumentException e) {
                if (results.isEmpty() && runs.isEmpty() && others.isEmpty() && oneJsonDocument(lines))
                    throw new IllegalArgumentException(file + ": one JSON document over several lines, as '--format json' prints a "
                            + "report; 'report' reads the JSON Lines file --save writes (results/<command>-<time>.jsonl by default)");
                if (!text.isCut(i))
                    throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a saved result ("
                            + reason(e) + ")");
                cut = "line " + (i + 1) + " was cut short (the file ends in the middle of it: the writing process was stopped) and is left out";
                warnings.accept(file + " " + cut);
            }
        }
        if (!runs.isEmpty() || !others.isEmpty()) results.add(recovered(file, runs, others, results.isEmpty(), cut));
        if (results.isEmpty())
            throw new IllegalArgumentException(file + ": no results in it (expected JSON lines written by 'blocklab run' or 'blocklab reproduce'"
                    + (cut == null ? ")" : "; its " + cut + ")"));
        return results;
    }

    /** One result rebuilt from the rows of an experiment whose own result line is not in the file. */
    private static ExperimentResult recovered(Path file, List<RunResult> runs, Map<String, List<ObjectNode>> others, boolean alone, String cut) {
        String name = String.valueOf(file.getFileName());
        List<String> notes = new ArrayList<>(List.of("Rebuilt from the rows streamed while measuring; the experiment's own tables and notes were not saved."));
        if (cut != null) notes.add("The file's " + cut + ".");
        for (RunResult r : runs) notes.addAll(RunTables.failureNotes(r.model(), r));
        List<Object> rows = new ArrayList<>(runs);
        List<dev.blocklab.result.Table> tables = new ArrayList<>();
        if (!runs.isEmpty()) {
            tables.add(RunTables.runs("Recovered runs", runs));
            tables.add(RunTables.predictions("Prediction beside measurement", LabelledRun.byModel(runs)));
        }
        others.forEach((kind, nodes) -> {
            tables.add(fields("Rows of kind '" + kind + "', as streamed", nodes));
            for (ObjectNode n : nodes) rows.add(READER.convertValue(n, Map.class));
        });
        return new ExperimentResult(name, "rows recovered from " + name + (alone ? " (the file holds no experiment-result line)"
                        : " (after its last experiment-result line: an experiment that did not finish)"),
                runs.isEmpty() ? "scale not saved" : "delays / " + runs.getFirst().timeScaleDivisor(), null, rows, tables, notes,
                runs.isEmpty() ? List.of() : RunCharts.standard("Recovered runs", LabelledRun.byModel(runs)));
    }

    /** A table of rows of one kind: a column per field (a nested object's as {@code outer.inner}), in the order first seen. */
    private static dev.blocklab.result.Table fields(String title, List<ObjectNode> nodes) {
        List<Map<String, String>> flat = new ArrayList<>();
        java.util.Set<String> columns = new java.util.LinkedHashSet<>();
        java.util.Set<String> keyedByData = keyedByData("", nodes);
        for (ObjectNode n : nodes) {
            Map<String, String> cells = new LinkedHashMap<>();
            flatten("", n, keyedByData, cells);
            columns.addAll(cells.keySet());
            flat.add(cells);
        }
        List<List<String>> rows = flat.stream().map(cells -> columns.stream().map(c -> cells.getOrDefault(c, "-")).toList()).toList();
        return new dev.blocklab.result.Table(title, List.copyOf(columns), rows);
    }

    private static void flatten(String prefix, JsonNode node, java.util.Set<String> keyedByData, Map<String, String> cells) {
        node.properties().forEach(e -> {
            if (e.getKey().endsWith("Histogram")) return;   // an encoded HdrHistogram: base64, nothing to read in a cell
            String path = prefix + e.getKey();
            if (e.getValue().isObject() && !keyedByData.contains(path)) flatten(path + ".", e.getValue(), keyedByData, cells);
            else cells.put(path, cell(e.getValue()));
        });
    }

    /**
     * The paths (under {@code prefix}) of the objects keyed by data rather than by field names, such as a failure's
     * message to its count: an object with a key that is not a name, or one whose values are all numbers and whose
     * keys differ between the rows that have it (a record's fields are the same in every row). Such an object's
     * entries share one cell; as columns, every row would get a column for each other row's messages.
     */
    private static java.util.Set<String> keyedByData(String prefix, List<? extends JsonNode> nodes) {
        Map<String, List<JsonNode>> objects = new LinkedHashMap<>();
        for (JsonNode n : nodes)
            n.properties().forEach(e -> {
                if (e.getValue().isObject()) objects.computeIfAbsent(prefix + e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            });
        java.util.Set<String> paths = new java.util.HashSet<>();
        objects.forEach((path, values) -> {
            boolean notNames = values.stream().anyMatch(v -> v.properties().stream().anyMatch(e -> !isName(e.getKey())));
            boolean numbersOnly = values.stream().allMatch(v -> v.properties().stream().allMatch(e -> e.getValue().isNumber()));
            boolean keysDiffer = values.stream().map(v -> {
                java.util.Set<String> keys = new java.util.HashSet<>();
                v.fieldNames().forEachRemaining(keys::add);
                return keys;
            }).distinct().count() > 1;
            if (notNames || (numbersOnly && keysDiffer)) paths.add(path);
            else paths.addAll(keyedByData(path + ".", values));
        });
        return paths;
    }

    private static boolean isName(String key) {
        return !key.isEmpty() && Character.isJavaIdentifierStart(key.charAt(0)) && key.chars().allMatch(Character::isJavaIdentifierPart);
    }

    /**
     * A field's value in a cell: numbers to 4 significant digits, a list as its length, an object keyed by data as
     * {@code key: value; ...}, long text cut at 80 characters.
     */
    private static String cell(JsonNode v) {
        if (v.isNull() || (v.isObject() && v.isEmpty())) return "-";
        if (v.isObject()) {
            List<String> entries = new ArrayList<>();
            v.properties().forEach(e -> entries.add(e.getKey() + ": " + cell(e.getValue())));
            return cut(String.join("; ", entries));
        }
        if (v.isIntegralNumber()) return v.asText();
        if (v.isNumber()) {
            double d = v.asDouble();
            return Double.isFinite(d) ? new java.math.BigDecimal(d).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString() : v.asText();
        }
        if (v.isArray()) return "[" + v.size() + (v.size() == 1 ? " item]" : " items]");
        return cut(v.asText());
    }

    /** {@code text} cut to 80 characters, its last three {@code ...} when cut. */
    private static String cut(String text) {
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }

    /** Closes the file, and removes it when nothing was written to it (with its directory, if this made it). */
    @Override public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            if (out == null) return;   // nothing written over earlier results: the file is as it was
            out.close();
            if (!written) Files.deleteIfExists(path);
            if (!written && madeDirectory) Files.deleteIfExists(path.getParent());
        } catch (java.nio.file.DirectoryNotEmptyException e) {
            // another file went there meanwhile: the directory stays
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * For a command stopped by a signal (Ctrl-C, SIGTERM), whose {@link #close} will not run: when nothing has been
     * written yet, closes and removes the file and returns true; a line written after that is dropped (the JVM is
     * stopping, and the command has said nothing was saved).
     */
    public synchronized boolean removeIfEmpty() {
        if (written) return false;
        removedOnSignal = true;
        close();
        return true;
    }
}
