package dev.blocklab.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** CoDel's verdicts as a table over a fake clock: target 5 ms, interval 100 ms. */
class QueueDelayShedderTest {
    private static final long MS = 1_000_000;

    @Test void aBurst_isNotShed_aStandingQueue_isShedBeyondTwiceTheTarget() {
        var codel = new QueueDelayShedder(5 * MS, 100 * MS, 0);
        // first interval: one request waited 0 ms, so its minimum is 0: no standing queue
        assertThat(codel.shed(0, 10 * MS)).isFalse();
        assertThat(codel.shed(80 * MS, 50 * MS)).as("a burst in a good interval waits, not shed").isFalse();
        // interval ends at 100 ms: min 0 <= 5 ms, not overloaded
        assertThat(codel.shed(30 * MS, 120 * MS)).isFalse();
        assertThat(codel.overloaded()).isFalse();
        assertThat(codel.shed(40 * MS, 150 * MS)).isFalse();
        // interval ends at 220 ms: min 30 ms > 5 ms, a standing queue: overloaded
        assertThat(codel.shed(60 * MS, 230 * MS)).as("waited 60 ms > 2 x 5 ms").isTrue();
        assertThat(codel.overloaded()).isTrue();
        assertThat(codel.shed(9 * MS, 240 * MS)).as("waited under 2 x target: served").isFalse();
        assertThat(codel.shed(11 * MS, 250 * MS)).isTrue();
        // interval ends at 330 ms: min 9 ms > 5 ms, still overloaded
        assertThat(codel.shed(1 * MS, 340 * MS)).isFalse();
        assertThat(codel.shed(20 * MS, 350 * MS)).isTrue();
        // interval ends at 440 ms: min 1 ms, the queue drained: nothing shed
        assertThat(codel.shed(20 * MS, 450 * MS)).isFalse();
        assertThat(codel.overloaded()).isFalse();
    }

    @Test void anIntervalWithoutRequests_doesNotCountAsOverloaded() {
        var codel = new QueueDelayShedder(5 * MS, 100 * MS, 0);
        assertThat(codel.shed(50 * MS, 150 * MS)).isFalse();
        assertThat(codel.overloaded()).isFalse();
    }
}
