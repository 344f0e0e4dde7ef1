package dev.blocklab;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NamesTest {
    @Test
    void didYouMean_theClosestKnownNameWithinTwoEdits() {
        List<String> known = List.of("thread-switch", "task-graph", "hundred-calls", "virtual", "fixed");
        assertThat(Names.didYouMean("thread-swich", known)).isEqualTo("; did you mean 'thread-switch'?");
        assertThat(Names.didYouMean("hundred-cals", known)).isEqualTo("; did you mean 'hundred-calls'?");
        assertThat(Names.didYouMean("Virtul", known)).as("case aside").isEqualTo("; did you mean 'virtual'?");
        assertThat(Names.didYouMean("pool", known)).as("nothing within two edits").isEmpty();
        assertThat(Names.distance("kitten", "sitting")).isEqualTo(3);
    }
}
