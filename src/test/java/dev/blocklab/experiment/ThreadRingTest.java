package dev.blocklab.experiment;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThreadRingTest {
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(20);

    @ParameterizedTest
    @EnumSource(ThreadSwitchVariant.class)
    void run_anyVariant_makesExactlyTheRequestedHandoffsInRingOrder(ThreadSwitchVariant variant) throws Exception {
        int threads = 5;
        long handoffs = 5 * 40;
        try (ThreadRing ring = new ThreadRing(variant, threads, 16, handoffs, true)) {
            ThreadRing.Lap lap = ring.run(TIMEOUT_NANOS);

            assertThat(lap.handoffs()).isEqualTo(handoffs);
            assertThat(lap.threads()).isEqualTo(threads);
            assertThat(ring.visits()).containsExactly(IntStream.range(0, (int) handoffs).map(i -> i % threads).toArray());
            assertThat(lap.elapsedNanos()).isPositive();
            assertThat(lap.microsPerSwitch()).isPositive();
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadSwitchVariant.class)
    void run_anyVariant_checksEveryTurnsBlockSum(ThreadSwitchVariant variant) throws Exception {
        try (ThreadRing ring = new ThreadRing(variant, 4, 256, 64, false)) {
            assertThat(ring.run(TIMEOUT_NANOS).sumsChecked()).isEqualTo(64);
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadSwitchVariant.class)
    void run_anyVariant_allThreadsEndWithoutClose(ThreadSwitchVariant variant) throws Exception {
        ThreadRing ring = new ThreadRing(variant, 8, 4, 8 * 3, false);
        ring.run(TIMEOUT_NANOS);

        assertThat(ring.allThreadsEnded()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(ThreadSwitchVariant.class)
    void run_oneThread_handsOffToItself(ThreadSwitchVariant variant) throws Exception {
        try (ThreadRing ring = new ThreadRing(variant, 1, 8, 50, true)) {
            ThreadRing.Lap lap = ring.run(TIMEOUT_NANOS);

            assertThat(lap.handoffs()).isEqualTo(50);
            assertThat(lap.sumsChecked()).isEqualTo(50);
            assertThat(ring.visits()).containsOnly(0);
        }
    }

    @ParameterizedTest
    @EnumSource(ThreadSwitchVariant.class)
    void run_corruptedBlock_failsNamingTheThreadAndEndsEveryThread(ThreadSwitchVariant variant) {
        ThreadRing ring = new ThreadRing(variant, 6, 32, 6 * 10, false);
        ring.corruptBlock(3);

        assertThatThrownBy(() -> ring.run(TIMEOUT_NANOS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("thread 3: block sum");
        assertThat(ring.allThreadsEnded()).isTrue();
    }

    @Test
    void close_byAnInterruptedThread_stillWaitsForTheRingAndKeepsTheFlag() {
        ThreadRing ring = new ThreadRing(ThreadSwitchVariant.PLATFORM_MONITOR, 4, 0, 8, false);
        Thread.currentThread().interrupt();
        try {
            ring.close();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(ring.allThreadsEnded()).isTrue();
    }

    @Test
    void close_beforeRun_endsParkedThreads() {
        ThreadRing ring = new ThreadRing(ThreadSwitchVariant.PLATFORM_MONITOR, 4, 0, 8, false);
        ring.close();

        assertThat(ring.allThreadsEnded()).isTrue();
    }

    @Test
    void run_twice_isRejected() throws Exception {
        try (ThreadRing ring = new ThreadRing(ThreadSwitchVariant.VIRTUAL_FUTURE, 2, 0, 4, false)) {
            ring.run(TIMEOUT_NANOS);
            assertThatThrownBy(() -> ring.run(TIMEOUT_NANOS)).hasMessageContaining("once");
        }
    }

    @Test
    void constructor_handoffsNotSplittingEvenly_isRejected() {
        assertThatThrownBy(() -> new ThreadRing(ThreadSwitchVariant.PLATFORM_FUTURE, 3, 0, 10, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10 hand-offs cannot be split evenly over 3 threads");
    }
}
