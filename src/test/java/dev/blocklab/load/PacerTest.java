package dev.blocklab.load;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PacerTest {
    private static final long MS = 1_000_000L;

    @ParameterizedTest(name = "{0}/s: request {1} due at {2} ns")
    @CsvSource({"1000, 0, 0", "1000, 1, 1000000", "1000, 999, 999000000", "3, 1, 333333334", "0.5, 2, 4000000000"})
    void dueNanos_constant(double rate, long index, long expectedNanos) {
        assertThat(new Pacer.Constant(rate).dueNanos(index)).isEqualTo(expectedNanos);
    }

    @ParameterizedTest(name = "{0}/s: {2} due by {1} ns")
    @CsvSource({"1000, -1, 0", "1000, 0, 1", "1000, 999999, 1", "1000, 1000000, 2", "1000, 1000000000, 1001", "10, 999999999, 10"})
    void dueBy_constant(double rate, long elapsedNanos, long expected) {
        assertThat(new Pacer.Constant(rate).dueBy(elapsedNanos)).isEqualTo(expected);
    }

    @Test
    void dueBy_isTheInverseOfDueNanos_forConstantAndRamp() {
        for (Pacer p : new Pacer[]{new Pacer.Constant(777), new Pacer.LinearRamp(100, 5000, 2_000 * MS),
                new Pacer.LinearRamp(5000, 100, 2_000 * MS)}) {
            for (long i = 0; i < 5_000; i += 37) {
                long due = p.dueNanos(i);
                assertThat(p.dueBy(due)).as("%s request %d", p, i).isGreaterThanOrEqualTo(i + 1);
                assertThat(p.dueBy(due - 1)).as("%s request %d", p, i).isLessThanOrEqualTo(i);
            }
        }
    }

    @Test
    void linearRamp_sendsTheAreaUnderTheRate() {
        // 100/s to 300/s over 2 s: mean 200/s, so 400 requests by 2 s, then 300/s
        Pacer p = new Pacer.LinearRamp(100, 300, 2_000 * MS);
        assertThat(p.dueBy(2_000 * MS - 1)).isBetween(400L, 401L);
        assertThat(p.dueBy(3_000 * MS)).isBetween(700L, 701L);
        assertThat(p.ratePerSecondAt(1_000 * MS)).isEqualTo(200.0);
        assertThat(p.ratePerSecondAt(10_000 * MS)).isEqualTo(300.0);
    }

    @Test
    void constructors_rejectNonPositiveRates() {
        assertThatThrownBy(() -> new Pacer.Constant(0)).hasMessageContaining("rate must be > 0");
        assertThatThrownBy(() -> new Pacer.LinearRamp(10, -1, MS)).hasMessageContaining("> 0");
    }
}
