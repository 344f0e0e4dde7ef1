package dev.blocklab.recorder;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ThreadSchedStatTest {

    private static boolean parse(String text, long[] into) {
        return ThreadSchedStat.parse(ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII)), into);
    }

    @Test
    void parse_readsRunAndWait() {
        long[] v = new long[2];
        assertThat(parse("123456789 987654 42\n", v)).isTrue();
        assertThat(v).containsExactly(123456789L, 987654L);
        assertThat(parse("5 6", v)).isTrue();
        assertThat(v).containsExactly(5L, 6L);
    }

    @Test
    void parse_refusesWhatIsNotTwoNumbers() {
        long[] v = new long[2];
        assertThat(parse("", v)).isFalse();
        assertThat(parse("17\n", v)).isFalse();
        assertThat(parse("x 1 2\n", v)).isFalse();
    }

    @Test
    void read_countsRunningWhileSpinning_andWaitingWhileCoresAreTaken() throws Exception {
        ThreadSchedStat stat = ThreadSchedStat.ofCurrentThread();
        assumeTrue(stat != null, "no /proc/thread-self/schedstat here");
        try (stat) {
            long[] before = new long[2], after = new long[2];
            // Asleep: neither running nor waiting for a core.
            assertThat(stat.read(before)).isTrue();
            // A second asleep, bounded at half of it: a busy machine can keep the woken thread waiting for a core
            // a few hundred ms (counted as waiting), while a read that counted the sleep would show the whole second.
            Thread.sleep(1_000);
            assertThat(stat.read(after)).isTrue();
            assertThat((after[0] - before[0]) + (after[1] - before[1])).isLessThan(TimeUnit.MILLISECONDS.toNanos(500));

            // Spinning beside twice as many spinners as cores: runnable throughout, so running or waiting for a
            // core the whole time, and waiting for a good part of it (more runnable threads than cores).
            int cores = Runtime.getRuntime().availableProcessors();
            List<Thread> spinners = new ArrayList<>();
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400);
            for (int i = 0; i < 2 * cores; i++)
                spinners.add(Thread.ofPlatform().daemon().start(() -> { while (System.nanoTime() < until) Thread.onSpinWait(); }));
            assertThat(stat.read(before)).isTrue();
            long start = System.nanoTime();
            while (System.nanoTime() < until) Thread.onSpinWait();
            long wall = System.nanoTime() - start;
            assertThat(stat.read(after)).isTrue();
            for (Thread t : spinners) t.join();
            long ran = after[0] - before[0], waited = after[1] - before[1];
            assertThat(ran).isPositive();
            assertThat(ran + waited).isGreaterThan(wall / 2);
            assertThat(waited).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }
}
