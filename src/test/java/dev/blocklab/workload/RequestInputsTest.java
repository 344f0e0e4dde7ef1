package dev.blocklab.workload;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequestInputsTest {
    private static final long MS = 1_000_000L;

    // input 7 -> a; b reads the graph's input; c reads a and the input; d reads c, b and a (order kept)
    private final Graph graph = new Graph(7L, List.of(
            Step.Call.fixed("a", MS, 1L),
            new Step.Call("b", List.of("input"), new Latency.Fixed(MS), new Value.Sum(0), 0, null, 0),
            new Step.Combine("c", List.of("a", "input"), new Value.Sum(0)),
            new Step.Combine("d", List.of("c", "b", "a"), new Value.Sum(0))));
    private final Request request = new Request(3, graph, 11, 1);

    @Test
    void inputsOf_givesEachNamedValueInOrder_andTheGraphsInputForItsName() {
        Object[] values = {"A", 8L, "C", null};
        assertThat(request.inputsOf(0, values)).isEmpty();
        assertThat(request.inputsOf(1, values)).containsExactly(7L);
        assertThat(request.inputsOf(2, values)).containsExactly("A", 7L);
        assertThat(request.inputsOf(3, values)).containsExactly("C", 8L, "A");
    }

    @Test
    void inputsOf_keepsANullValue_andTheListCannotGrow() {
        Object[] values = new Object[4];   // nothing computed yet: a value may be null
        assertThat(request.inputsOf(3, values)).containsExactly(null, null, null);
        List<Object> two = request.inputsOf(2, new Object[4]);
        assertThat(two).containsExactly(null, 7L);
        assertThatThrownBy(() -> two.add("x")).isInstanceOf(UnsupportedOperationException.class);
        List<Object> one = request.inputsOf(1, values);
        assertThatThrownBy(() -> one.add("x")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void invocation_readsTheInputs_sumOfTheGraphsInput() {
        assertThat(request.invocation(1, request.inputsOf(1, new Object[4])).value()).isEqualTo(7L);
        assertThat(request.compute(2, request.inputsOf(2, new Object[]{5L, null, null, null}))).isEqualTo(12L);
    }
}
