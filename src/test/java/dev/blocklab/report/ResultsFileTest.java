package dev.blocklab.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A results file nothing was written to leaves nothing behind; one with a line is kept whole. */
class ResultsFileTest {
    @TempDir Path dir;

    @Test
    void close_nothingWritten_removesTheFile_andTheDirectoryItMade() throws Exception {
        Path path = dir.resolve("results/run.jsonl");
        try (ResultsFile file = new ResultsFile(path)) {
            assertThat(path).exists();
        }
        assertThat(path.getParent()).doesNotExist();
        Path earlier = Files.writeString(Files.createDirectories(dir.resolve("kept")).resolve("earlier.jsonl"), "{}\n");
        try (ResultsFile file = new ResultsFile(earlier.resolveSibling("run.jsonl"))) {
            assertThat(earlier.resolveSibling("run.jsonl")).exists();
        }
        assertThat(earlier.getParent()).isDirectory();
        assertThat(earlier.resolveSibling("run.jsonl")).doesNotExist();
    }

    @Test
    void close_aLineWritten_keepsTheFile() throws Exception {
        Path path = dir.resolve("run.jsonl");
        try (ResultsFile file = new ResultsFile(path)) {
            file.write("run", Map.of("model", "virtual"));
        }
        assertThat(Files.readString(path)).isEqualTo("{\"kind\":\"run\",\"model\":\"virtual\"}\n");
    }

    @Test
    void aFileHoldingResults_isKeptAsPrevious_notOverwritten() throws Exception {
        Path path = dir.resolve("run.jsonl");
        Files.writeString(path, "{\"kind\":\"run\",\"model\":\"fixed:8\"}\n");
        try (ResultsFile file = new ResultsFile(path)) {
            assertThat(file.keptEarlier()).isEmpty();   // nothing moves before the first new line
            assertThat(Files.readString(path)).contains("fixed:8");
            file.write("run", Map.of("model", "virtual"));
            assertThat(file.keptEarlier()).contains(dir.resolve("run.jsonl.previous"));
        }
        assertThat(Files.readString(path)).isEqualTo("{\"kind\":\"run\",\"model\":\"virtual\"}\n");
        assertThat(Files.readString(dir.resolve("run.jsonl.previous"))).contains("fixed:8");
    }

    @Test
    void nothingNewWritten_leavesTheFileAndItsPreviousAsTheyWere_andAnEmptyFileIsNotKept() throws Exception {
        Path path = dir.resolve("run.jsonl"), empty = dir.resolve("empty.jsonl");
        Files.writeString(path, "{\"kind\":\"run\",\"model\":\"fixed:8\"}\n");
        Files.writeString(dir.resolve("run.jsonl.previous"), "{\"kind\":\"run\",\"model\":\"cached\"}\n");
        Files.writeString(empty, "");
        try (ResultsFile file = new ResultsFile(path); ResultsFile other = new ResultsFile(empty)) {
            assertThat(file.keptEarlier()).isEmpty();
            other.write("run", Map.of("model", "virtual"));
            assertThat(other.keptEarlier()).isEmpty();
        }
        assertThat(Files.readString(path)).contains("fixed:8");
        assertThat(Files.readString(dir.resolve("run.jsonl.previous"))).contains("cached");   // the generation before, not lost
        assertThat(dir.resolve("empty.jsonl.previous")).doesNotExist();
    }

    @Test
    void removeIfEmpty_onASignal_removesOnlyAnEmptyFile_andDropsLaterLines() {
        Path empty = dir.resolve("empty.jsonl"), saved = dir.resolve("saved.jsonl");
        try (ResultsFile file = new ResultsFile(empty)) {
            assertThat(file.removeIfEmpty()).isTrue();
            file.write("run", Map.of("model", "virtual"));   // a model ending as the JVM stops: told nothing was saved
        }
        assertThat(empty).doesNotExist();
        try (ResultsFile file = new ResultsFile(saved)) {
            file.write("run", Map.of("model", "virtual"));
            assertThat(file.removeIfEmpty()).isFalse();
        }
        assertThat(saved).isNotEmptyFile();
    }
}
