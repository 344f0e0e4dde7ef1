package dev.blocklab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextFilesTest {
    @TempDir Path dir;

    @Test
    void lines_readableFile_everyLineInOrder() throws IOException {
        Path file = Files.writeString(dir.resolve("routes.txt"), "/a delay=1ms\n\n# note\n/b delay=2ms\n");
        assertThat(TextFiles.lines(file, "unused")).containsExactly("/a delay=1ms", "", "# note", "/b delay=2ms");
    }

    @Test
    void lines_missingFile_oneLineErrorStartingWithTheGivenWords() {
        Path missing = dir.resolve("missing.jsonl");
        assertThatThrownBy(() -> TextFiles.lines(missing, "cannot read " + missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("cannot read " + missing + ": ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
