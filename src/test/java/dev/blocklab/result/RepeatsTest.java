package dev.blocklab.result;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RepeatsTest {
    @Test void of_wallTimes_countAndRange() {
        assertThat(Repeats.of(List.of(12.0, 9.5, 30.0))).isEqualTo(new Repeats(3, 9.5, 30.0));
        assertThat(Repeats.of(List.of(4.0))).isEqualTo(Repeats.once(4.0));
    }

    @Test void plus_countsAddAndRangeSpansBoth() {
        assertThat(new Repeats(2, 5, 8).plus(new Repeats(3, 6, 11))).isEqualTo(new Repeats(5, 5, 11));
    }

    @Test void new_invalid_rejected() {
        assertThatThrownBy(() -> new Repeats(0, 1, 1)).hasMessageContaining("at least 1 run");
        assertThatThrownBy(() -> new Repeats(2, 5, 4)).hasMessageContaining("exceeds the longest");
        assertThatThrownBy(() -> Repeats.of(List.of())).hasMessageContaining("got none");
    }
}
