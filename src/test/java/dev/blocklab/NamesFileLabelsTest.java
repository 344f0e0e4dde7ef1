package dev.blocklab;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NamesFileLabelsTest {
    private static List<String> labels(String... files) {
        return Names.fileLabels(List.of(files).stream().map(Path::of).toList());
    }

    @Test
    void labels_fileNameAlone_whenNamesDiffer() {
        assertThat(labels("results/before.jsonl", "other/after.jsonl")).containsExactly("before.jsonl", "after.jsonl");
        assertThat(labels("results/run.jsonl")).containsExactly("run.jsonl");
    }

    @Test
    void labels_shortestEndThatTellsThemApart() {
        assertThat(labels("a/fan.jsonl", "b/fan.jsonl", "c.jsonl")).containsExactly("a/fan.jsonl", "b/fan.jsonl", "c.jsonl");
        assertThat(labels("x/a/fan.jsonl", "y/a/fan.jsonl", "b/fan.jsonl")).containsExactly("x/a/fan.jsonl", "y/a/fan.jsonl", "b/fan.jsonl");
        assertThat(labels("r/fan.jsonl", "r/a/fan.jsonl")).containsExactly("r/fan.jsonl", "a/fan.jsonl");
    }

    @Test
    void labels_oneFileGivenTwice_oneLabel() {
        assertThat(labels("a/fan.jsonl", "./a/fan.jsonl", "b/fan.jsonl")).containsExactly("a/fan.jsonl", "a/fan.jsonl", "b/fan.jsonl");
    }
}
