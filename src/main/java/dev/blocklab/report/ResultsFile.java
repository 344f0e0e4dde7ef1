package dev.blocklab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.blocklab.report.Jsons;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.RunResult;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Streams rows to a JSON Lines file as they are measured, one object per line with a {@code "kind"}, flushed
 * after each, so an interrupted run keeps everything measured before it stopped. At the end of each experiment
 * the whole {@link ExperimentResult} follows as one line of kind {@value #EXPERIMENT_RESULT}, which
 * {@link #read(Path)} (and so {@code blocklab report}) turns back into a result.
 */
public final class ResultsFile implements AutoCloseable {
    /** The kind of the line that holds a whole experiment's result. */
    public static final String EXPERIMENT_RESULT = "experiment-result";
    private static final ObjectMapper MAPPER = Jsons.mapper();
    private static final ObjectMapper READER = Jsons.mapper().copy()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private final Path path;
    private final BufferedWriter writer;

    public ResultsFile(Path path) {
        this.path = path;
        try {
            if (path.getParent() != null) Files.createDirectories(path.getParent());
            writer = Files.newBufferedWriter(path);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write results to " + path + ": " + dev.blocklab.TextFiles.reason(e));
        }
    }

    /** {@code results/NAME-yyyyMMdd-HHmmss.jsonl} under the working directory. */
    public static Path defaultPath(String name) {
        return Path.of("results", name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".jsonl");
    }

    public synchronized void write(String kind, Object row) {
        try {
            var node = MAPPER.createObjectNode();
            node.put("kind", kind);
            node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.valueToTree(row));
            writer.write(MAPPER.writeValueAsString(node));
            writer.newLine();
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results to " + path + ": " + dev.blocklab.TextFiles.reason(e), e);
        }
    }

    /** Writes the whole result as one line of kind {@value #EXPERIMENT_RESULT}. */
    public void writeResult(ExperimentResult result) { write(EXPERIMENT_RESULT, result); }

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
            List<String> lines = Files.readAllLines(file);
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i);
                if (!line.contains("\"" + PAGE + "\"")) continue;
                JsonNode node = READER.readTree(line);
                if (PAGE.equals(node.path("kind").asText()) && node.path("title").isTextual()) return node.path("title").asText();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }

    public Path path() { return path; }

    /**
     * The results saved in {@code file}: each {@value #EXPERIMENT_RESULT} line, its rows as generic maps. A file
     * without one (a run that was interrupted) gives one result rebuilt from the lines that hold a run's
     * measurements, with the standard tables and charts; a file with neither is an error naming it.
     */
    public static List<ExperimentResult> read(Path file) {
        List<String> lines = dev.blocklab.TextFiles.lines(file, "cannot read " + file);
        List<ExperimentResult> results = new ArrayList<>();
        List<RunResult> runs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) continue;
            try {
                JsonNode node = READER.readTree(line);
                if (!(node instanceof ObjectNode object)) throw new IllegalArgumentException("not a JSON object");
                String kind = object.path("kind").asText("");
                object.remove("kind");
                if (kind.equals(EXPERIMENT_RESULT)) results.add(READER.treeToValue(object, ExperimentResult.class));
                else if (object.has("model") && object.has("wallMillis") && object.has("latencyMillis"))
                    runs.add(READER.treeToValue(object, RunResult.class));
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": not a saved result ("
                        + e.getMessage().lines().findFirst().orElse("") + ")");
            }
        }
        if (!results.isEmpty()) return results;
        if (runs.isEmpty()) throw new IllegalArgumentException(file + ": no results in it (expected JSON lines written by 'blocklab run' or 'blocklab reproduce')");
        String name = String.valueOf(file.getFileName());
        List<String> notes = new ArrayList<>(List.of("Rebuilt from the rows streamed while measuring; the experiment's own tables and notes were not saved."));
        for (RunResult r : runs) notes.addAll(RunTables.failureNotes(r.model(), r));
        return List.of(new ExperimentResult(name, "runs recovered from " + name + " (the file holds no experiment-result line)",
                "delays / " + runs.getFirst().timeScaleDivisor(), null, runs,
                List.of(RunTables.runs("Recovered runs", runs), RunTables.predictions("Prediction beside measurement", LabelledRun.byModel(runs))),
                notes,
                RunCharts.standard("Recovered runs", LabelledRun.byModel(runs))));
    }

    @Override public void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
