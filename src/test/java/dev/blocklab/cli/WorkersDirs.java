package dev.blocklab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The directories {@code attack --workers} writes under results/ in the working directory, for tests that clean up after it. */
final class WorkersDirs {
    private WorkersDirs() {}

    /** The workers-* directories under results/ now (a fresh, modifiable set). */
    static Set<Path> now() throws IOException {
        Path results = Path.of("results");
        if (!Files.isDirectory(results)) return new TreeSet<>();
        try (Stream<Path> all = Files.list(results)) {
            return new TreeSet<>(all.filter(p -> p.getFileName().toString().startsWith("workers-")).toList());
        }
    }

    /** Those present now that were not {@code before}. */
    static Set<Path> madeSince(Set<Path> before) throws IOException {
        Set<Path> made = now();
        made.removeAll(before);
        return made;
    }

    static void delete(Set<Path> dirs) throws IOException {
        for (Path dir : dirs)
            try (Stream<Path> tree = Files.walk(dir)) {
                for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
    }
}
