package dev.blocklab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reading the lab's own text files (routes, saved results, shard records) with the one-line error every door shows. */
public final class TextFiles {
    private TextFiles() {}

    /**
     * The lines of {@code file} (UTF-8); when it cannot be read, an {@link IllegalArgumentException} whose message is
     * {@code error}, a colon, and the reason, e.g. {@code "cannot read results.jsonl: results.jsonl"}.
     */
    public static List<String> lines(Path file, String error) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(error + ": " + e.getMessage());
        }
    }
}
