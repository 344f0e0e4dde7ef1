package dev.blocklab.result;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountsTest {
    @Test void plus_addsEveryCountAndMergesCauses() {
        Counts a = new Counts(10, 7, 2, 1, 0, Map.of("java.io.IOException: reset", 2L, "timeout: call", 1L));
        Counts b = new Counts(5, 3, 1, 0, 1, Map.of("java.io.IOException: reset", 1L));
        Counts sum = a.plus(b);
        assertThat(sum).isEqualTo(new Counts(15, 10, 3, 1, 1, Map.of("java.io.IOException: reset", 3L, "timeout: call", 1L)));
        assertThat(sum.unsuccessful()).isEqualTo(5);
        assertThat(sum.plus(Counts.NONE)).isEqualTo(sum);
    }

    @Test void plus_isCommutative() {
        Counts a = new Counts(3, 1, 2, 0, 0, Map.of("x: 1", 2L));
        Counts b = new Counts(4, 2, 0, 2, 0, Map.of("timeout: y", 2L));
        assertThat(a.plus(b)).isEqualTo(b.plus(a));
    }

    @Test void successRatio_noRequests_zero() {
        assertThat(Counts.NONE.successRatio()).isZero();
        assertThat(new Counts(4, 3, 1, 0, 0, Map.of()).successRatio()).isEqualTo(0.75);
    }

    @Test void new_outcomesNotAddingUpToRequests_rejectedNamingTheCounts() {
        assertThatThrownBy(() -> new Counts(10, 7, 2, 0, 0, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must add up to the 10 requests");
    }

    @Test void new_negativeCount_rejected() {
        assertThatThrownBy(() -> new Counts(0, 1, -1, 0, 0, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 0");
    }

    @Test void new_causesCopiedSortedAndUnmodifiable() {
        java.util.HashMap<String, Long> causes = new java.util.HashMap<>(Map.of("b: 2", 1L, "a: 1", 1L));
        Counts c = new Counts(2, 0, 2, 0, 0, causes);
        causes.clear();
        assertThat(c.failureCauses()).containsExactly(Map.entry("a: 1", 1L), Map.entry("b: 2", 1L));
        assertThatThrownBy(() -> c.failureCauses().put("c", 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new Counts(0, 0, 0, 0, 0, null).failureCauses()).isEmpty();
    }
}
