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

    @Test
    void everyNamedChoice_suggestsTheClosest() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> dev.blocklab.server.Admission.parse("codl"))
                .hasMessageContaining("did you mean 'codel'?");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> dev.blocklab.report.ReportFormat.parse("jsn"))
                .hasMessageContaining("did you mean 'json'?");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> dev.blocklab.frameworks.FrameworkVariants.named("reactr", 16))
                .hasMessageContaining("did you mean 'reactor'?");
    }
}
