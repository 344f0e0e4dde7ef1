package dev.blocklab.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one golden-file check of every report format: the rendered text must equal the file under
 * {@code src/test/resources/golden/} byte for byte. After an intended change, regenerate with
 * {@code -Dgolden.update=true} (e.g. {@code ./mvnw -o test -Dtest='*Golden*,AttackReportTest' -Dgolden.update=true})
 * and review the diff before committing it.
 */
public final class Golden {
    /** Where golden files live, relative to the project directory tests run in. */
    public static final Path DIR = Path.of("src/test/resources/golden");

    private Golden() {}

    /** Asserts that {@code actual} equals the golden file {@code name} (a path under {@link #DIR}). */
    public static void assertMatches(String name, String actual) {
        Path file = DIR.resolve(name);
        try {
            if (Boolean.getBoolean("golden.update")) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, actual);
            }
            assertThat(file).as("golden file %s (regenerate with -Dgolden.update=true)", file).exists();
            assertThat(actual).as("output differs from %s; if intended, regenerate with -Dgolden.update=true and review the diff", file)
                    .isEqualTo(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
