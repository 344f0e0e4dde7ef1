package dev.blocklab.recorder;

import dev.blocklab.result.Outcome;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunRecorderTest {

    @Test
    void record_manyThreadsAtOnce_everyLatencyAndOutcomeCounted() throws Exception {
        RunRecorder recorder = new RunRecorder(2);   // fewer stripes than writers: writers must move on, never lose a value
        int threads = 8;
        int perThread = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            writers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 1; i <= perThread; i++) {
                    long end = id * 1_000_000L + i;   // the latest: writer 7's last
                    if (i % 100 == 0) recorder.record(end, 1_000_000L, new Outcome.Failure(new IllegalStateException("boom")));
                    else recorder.recordSuccess(end, i * 1_000L, id);
                }
            }));
        }
        start.countDown();
        for (Thread w : writers) w.join();

        long total = (long) threads * perThread;
        long failures = total / 100;
        assertThat(recorder.completed()).isEqualTo(total);
        assertThat(recorder.successes()).isEqualTo(total - failures);
        assertThat(recorder.failures()).isEqualTo(failures);
        assertThat(recorder.causes()).containsExactly(java.util.Map.entry("java.lang.IllegalStateException: boom", failures));
        assertThat(recorder.firstFailure()).hasMessage("boom");
        assertThat(recorder.firstAnswer()).isIn(0, 1, 2, 3, 4, 5, 6, 7);
        Histogram h = recorder.histogram();
        assertThat(h.getTotalCount()).isEqualTo(total);
        assertThat(h.getMaxValue()).isEqualTo(h.highestEquivalentValue(perThread * 1_000L));
        assertThat(h.getMinValue()).isEqualTo(h.lowestEquivalentValue(1_000L));
        assertThat(recorder.lastEndNanos(-1)).isEqualTo((threads - 1) * 1_000_000L + perThread);
    }

    @Test
    void lastEndNanos_theLatestCompletion_onTheNanoTimeClock_orElseWhenNone() {
        RunRecorder recorder = new RunRecorder(4);
        assertThat(recorder.lastEndNanos(42)).isEqualTo(42);
        // nanoTime values may be negative and wrap: compared by difference, as System.nanoTime says
        recorder.recordSuccess(Long.MAX_VALUE - 5, 1, "a");
        recorder.record(Long.MIN_VALUE + 3, 1, new Outcome.Cancelled());   // 9 ns after the first, across the wrap
        recorder.recordSuccess(Long.MAX_VALUE - 10, 1, "b");   // before both
        assertThat(recorder.lastEndNanos(42)).isEqualTo(Long.MIN_VALUE + 3);
    }

    @Test
    void record_eachOutcome_countedApartWithItsCause() {
        RunRecorder recorder = new RunRecorder();
        recorder.record(0, 5, new Outcome.Success("a"));
        recorder.record(0, 6, new Outcome.Timeout("after 1s"));
        recorder.record(0, 7, new Outcome.Cancelled());
        recorder.record(0, -3, Outcome.of(null, new TimeoutException("slow")));   // a negative latency counts as 0

        assertThat(recorder.successes()).isEqualTo(1);
        assertThat(recorder.timeouts()).isEqualTo(2);
        assertThat(recorder.cancelled()).isEqualTo(1);
        assertThat(recorder.completed()).isEqualTo(4);
        assertThat(recorder.firstAnswer()).isEqualTo("a");
        assertThat(recorder.causes()).containsOnlyKeys("timeout: after 1s", "timeout: slow");
        assertThat(recorder.histogram().getTotalCount()).isEqualTo(4);
        assertThat(recorder.histogram().getMinValue()).isZero();
    }

    @Test
    void constructor_stripeCountNotAPowerOfTwo_rejected() {
        assertThatThrownBy(() -> new RunRecorder(3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunRecorder(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
