package dev.blocklab.load;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PacerTableTest {
    private static final long MS = 1_000_000L, S = 1_000_000_000L;

    static Stream<Arguments> dueTimes() {
        Pacer constant = new Pacer.Constant(1000);
        Pacer ramp = new Pacer.LinearRamp(100, 300, 2 * S);          // area(t) = 100t + 50t^2 for t <= 2s
        Pacer steps = new Pacer.Steps(List.of(10.0, 100.0, 1.0), S); // 10 in [0,1s), 100 in [1s,2s), then 1/s
        return Stream.of(
                arguments("constant first", constant, 0L, 0L),
                arguments("constant 1st", constant, 1L, MS),
                arguments("constant 1000th", constant, 1000L, S),
                arguments("ramp first", ramp, 0L, 0L),
                arguments("ramp 150 at 1s", ramp, 150L, S),
                arguments("ramp 400 at 2s", ramp, 400L, 2 * S),
                arguments("ramp after end at 300/s", ramp, 700L, 3 * S),
                arguments("steps first", steps, 0L, 0L),
                arguments("steps in step 0", steps, 5L, 500 * MS),
                arguments("steps start of step 1", steps, 10L, S),
                arguments("steps in step 1", steps, 60L, 1500 * MS),
                arguments("steps start of last", steps, 110L, 2 * S),
                arguments("steps last rate continues", steps, 113L, 5 * S));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dueTimes")
    void dueNanos_table(String name, Pacer pacer, long index, long expectedNanos) {
        assertThat(pacer.dueNanos(index)).isCloseTo(expectedNanos, org.assertj.core.data.Offset.offset(1L));
    }

    static Stream<Arguments> dueCounts() {
        Pacer constant = new Pacer.Constant(1000);
        Pacer ramp = new Pacer.LinearRamp(100, 300, 2 * S);
        Pacer steps = new Pacer.Steps(List.of(10.0, 100.0, 1.0), S);
        return Stream.of(
                arguments("constant before start", constant, -1L, 0L),
                arguments("constant at start", constant, 0L, 1L),
                arguments("constant just before 1ms", constant, MS - 1, 1L),
                arguments("constant at 1ms", constant, MS, 2L),
                arguments("constant 1s", constant, S - 1, 1000L),
                arguments("ramp 1s", ramp, S - 1, 150L),
                arguments("ramp 2s", ramp, 2 * S - 1, 400L),
                arguments("ramp 3s", ramp, 3 * S - 1, 700L),
                arguments("steps 1s", steps, S - 1, 10L),
                arguments("steps 2s", steps, 2 * S - 1, 110L),
                arguments("steps 10s", steps, 10 * S - 1, 118L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dueCounts")
    void dueBy_table(String name, Pacer pacer, long elapsedNanos, long expectedCount) {
        assertThat(pacer.dueBy(elapsedNanos)).isEqualTo(expectedCount);
    }

    @Test
    void dueByAndDueNanos_agreeForEveryRequest() {
        for (Pacer p : List.of(new Pacer.Constant(333), new Pacer.LinearRamp(50, 900, 3 * S),
                new Pacer.LinearRamp(900, 50, 3 * S), new Pacer.Steps(List.of(7.0, 250.0, 40.0), 700 * MS))) {
            for (long i = 0; i < 2000; i++) {
                long due = p.dueNanos(i);
                assertThat(p.dueBy(due)).as("%s request %d due at %d", p, i, due).isGreaterThan(i);
                if (due > 0) assertThat(p.dueBy(due - 2)).as("%s request %d just before %d", p, i, due).isLessThanOrEqualTo(i);
                assertThat(p.dueNanos(i + 1)).isGreaterThanOrEqualTo(due);
            }
        }
    }

    @Test
    void ratePerSecondAt_followsTheShape() {
        assertThat(new Pacer.LinearRamp(100, 300, 2 * S).ratePerSecondAt(S)).isEqualTo(200.0);
        assertThat(new Pacer.LinearRamp(100, 300, 2 * S).ratePerSecondAt(5 * S)).isEqualTo(300.0);
        Pacer steps = new Pacer.Steps(List.of(10.0, 100.0, 1.0), S);
        assertThat(steps.ratePerSecondAt(0)).isEqualTo(10.0);
        assertThat(steps.ratePerSecondAt(S)).isEqualTo(100.0);
        assertThat(steps.ratePerSecondAt(9 * S)).isEqualTo(1.0);
    }

    @Test
    void scaledDown_dividesEveryDueTimeAndStillAgreesWithDueBy() {
        for (Pacer p : List.of(new Pacer.Constant(333), new Pacer.LinearRamp(100, 5000, 3 * S),
                new Pacer.Steps(List.of(7.0, 250.0, 40.0), 700 * MS))) {
            DueTimes scaled = p.scaledDown(100);
            for (long i = 0; i < 2000; i++) {
                long due = scaled.dueNanos(i);
                assertThat(due).isEqualTo(p.dueNanos(i) / 100);
                assertThat(scaled.dueBy(due)).as("%s /100 request %d due at %d", p, i, due).isGreaterThan(i);
                if (due > 0) assertThat(scaled.dueBy(due - 1)).as("%s /100 request %d before %d", p, i, due).isLessThanOrEqualTo(i);
            }
        }
        Pacer one = new Pacer.Constant(10);
        assertThat(one.scaledDown(1)).isSameAs(one);
        assertThatThrownBy(() -> one.scaledDown(0)).hasMessageContaining("time scale");
    }

    @Test
    void steps_rejectsBadInput() {
        assertThatThrownBy(() -> new Pacer.Steps(List.of(), S)).hasMessageContaining("at least one rate");
        assertThatThrownBy(() -> new Pacer.Steps(List.of(10.0, 0.0), S)).hasMessageContaining("> 0");
        assertThatThrownBy(() -> new Pacer.Steps(List.of(10.0), 0)).hasMessageContaining("positive duration");
    }
}
