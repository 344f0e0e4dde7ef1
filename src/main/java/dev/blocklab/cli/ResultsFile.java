package dev.blocklab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.blocklab.report.Jsons;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Streams rows to a JSON Lines file as they are measured, one object per line, flushed after each, so an
 * interrupted run keeps everything measured before it stopped.
 */
final class ResultsFile implements AutoCloseable {
    private static final ObjectMapper MAPPER = Jsons.mapper();
    private final Path path;
    private final BufferedWriter writer;

    ResultsFile(Path path) {
        this.path = path;
        try {
            if (path.getParent() != null) Files.createDirectories(path.getParent());
            writer = Files.newBufferedWriter(path);
        } catch (IOException e) {
            throw new Main.UsageException("cannot write results to " + path + ": " + e.getMessage());
        }
    }

    /** {@code results/NAME-yyyyMMdd-HHmmss.jsonl} under the working directory. */
    static Path defaultPath(String name) {
        return Path.of("results", name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".jsonl");
    }

    synchronized void write(String kind, Object row) {
        try {
            var node = MAPPER.createObjectNode();
            node.put("kind", kind);
            node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) MAPPER.valueToTree(row));
            writer.write(MAPPER.writeValueAsString(node));
            writer.newLine();
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results to " + path, e);
        }
    }

    Path path() { return path; }

    @Override public void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
