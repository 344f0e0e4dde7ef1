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
                    if (i % 100 == 0) recorder.record(1_000_000L, new Outcome.Failure(new IllegalStateException("boom")));
                    else recorder.recordSuccess(i * 1_000L, id);
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
    }

    @Test
    void record_eachOutcome_countedApartWithItsCause() {
        RunRecorder recorder = new RunRecorder();
        recorder.record(5, new Outcome.Success("a"));
        recorder.record(6, new Outcome.Timeout("after 1s"));
        recorder.record(7, new Outcome.Cancelled());
        recorder.record(-3, Outcome.of(null, new TimeoutException("slow")));   // a negative latency counts as 0

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
