package dev.blocklab;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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
    void linesOf_toldWhetherTheLastLineWasCutShort() throws IOException {
        Path whole = Files.writeString(dir.resolve("whole.jsonl"), "{\"a\":1}\r\n{\"b\":2}\n");
        assertThat(TextFiles.linesOf(whole, "unused")).isEqualTo(new TextFiles.Lines(java.util.List.of("{\"a\":1}", "{\"b\":2}"), false));
        Path cut = Files.write(dir.resolve("cut.jsonl"), new byte[] {'{', '}', '\n', '{', '"', (byte) 0xC3});   // stopped inside a character
        TextFiles.Lines lines = TextFiles.linesOf(cut, "unused");
        assertThat(lines.lines()).containsExactly("{}", "{\"\uFFFD");
        assertThat(lines.isCut(1)).isTrue();
        assertThat(lines.isCut(0)).isFalse();
        assertThat(TextFiles.linesOf(Files.writeString(dir.resolve("empty"), ""), "unused").lastCut()).isFalse();
        Path broken = Files.write(dir.resolve("broken.jsonl"), new byte[] {'{', '}', '\n', '"', (byte) 0xC3, '"', '\n', '{', '}'});
        assertThatThrownBy(() -> TextFiles.linesOf(broken, "cannot read " + broken))
                .as("a bad byte in a line that ends is not a cut: an error naming the line")
                .hasMessage("cannot read " + broken + ": line 2 is not UTF-8 text");
        assertThatThrownBy(() -> TextFiles.linesOf(dir, "cannot read " + dir)).hasMessage("cannot read " + dir + ": is a directory");
    }

    @Test
    void lines_missingFile_oneLineErrorStartingWithTheGivenWords() {
        Path missing = dir.resolve("missing.jsonl");
        assertThatThrownBy(() -> TextFiles.lines(missing, "cannot read " + missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot read " + missing + ": no such file");
    }

    @Test
    void lines_directory_saysSo() {
        assertThatThrownBy(() -> TextFiles.lines(dir, "cannot read " + dir)).hasMessage("cannot read " + dir + ": is a directory");
    }

    @Test
    void reason_namesTheCauseNotThePath() {
        assertThat(TextFiles.reason(new NoSuchFileException("/tmp/x"))).isEqualTo("no such file");
        assertThat(TextFiles.reason(new AccessDeniedException("/tmp/x"))).isEqualTo("permission denied");
        assertThat(TextFiles.reason(new NotDirectoryException("/tmp/x"))).isEqualTo("not a directory");
        assertThat(TextFiles.reason(new FileSystemException("/tmp/x", null, "Is a directory"))).isEqualTo("is a directory");
        assertThat(TextFiles.reason(new FileSystemException("/tmp/x", null, "Not a directory"))).isEqualTo("not a directory");
        assertThat(TextFiles.reason(new FileSystemException("/mnt/x", null, "Read-only file system"))).isEqualTo("file system is read-only");
        assertThat(TextFiles.reason(new FileSystemException("/mnt/x", null, "No space left on device"))).isEqualTo("No space left on device");
        assertThat(TextFiles.reason(new FileNotFoundException("/proc/x.hlog (No such file or directory)"))).isEqualTo("no such file");
        assertThat(TextFiles.reason(new IOException("Is a directory"))).isEqualTo("is a directory");
        assertThat(TextFiles.reason(new IOException("Stream closed"))).isEqualTo("Stream closed");
        assertThat(TextFiles.reason(new java.nio.file.DirectoryNotEmptyException("/tmp/d"))).isEqualTo("directory not empty");
        assertThat(TextFiles.reason(new java.nio.file.FileSystemLoopException("/tmp/l"))).as("never the path alone").isEqualTo("FileSystemLoopException");
    }

    @Test
    void reason_ofRealFailures() throws IOException {
        Path file = dir.resolve("f.txt");
        assertThat(failure(() -> Files.readString(file))).isEqualTo("no such file");
        assertThat(failure(() -> Files.writeString(dir.resolve("no/such/dir.txt"), "x"))).isEqualTo("no such file");
        assertThat(failure(() -> Files.writeString(dir, "x"))).isEqualTo("is a directory");
        Files.writeString(file, "x");
        assertThat(failure(() -> Files.readString(file.resolve("child")))).isEqualTo("not a directory");
        assertThat(failure(() -> Files.createDirectories(file))).isEqualTo(file + " already exists");
    }

    private static String failure(java.util.concurrent.Callable<?> io) {
        try {
            io.call();
            throw new AssertionError("no IOException");
        } catch (IOException e) {
            return TextFiles.reason(e);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
