package dev.blocklab.preview;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The preview adapter on JDK 25 with --enable-preview (as the tests run): results in order, failures as thrown, no task left running. */
class StructuredConcurrencyTest {
    @Test void unavailableReason_emptyWithPreviewEnabled() {
        assertThat(StructuredConcurrency.unavailableReason()).isEmpty();
    }

    @Test void forkAll_resultsInTaskOrder_eachOnItsOwnVirtualThread() throws Exception {
        List<Callable<String>> tasks = List.of(
                () -> { Thread.sleep(30); return "a:" + Thread.currentThread().isVirtual() + ":" + Thread.currentThread().threadId(); },
                () -> "b:" + Thread.currentThread().isVirtual() + ":" + Thread.currentThread().threadId(),
                () -> { Thread.sleep(10); return "c:" + Thread.currentThread().isVirtual() + ":" + Thread.currentThread().threadId(); });
        List<String> results = StructuredConcurrency.forkAll(tasks);
        assertThat(results).extracting(r -> r.substring(0, 7)).containsExactly("a:true:", "b:true:", "c:true:");
        assertThat(results).extracting(r -> r.substring(r.lastIndexOf(':') + 1)).doesNotHaveDuplicates()
                .doesNotContain(String.valueOf(Thread.currentThread().threadId()));
    }

    @Test void forkAll_noTasks_isEmpty() throws Exception {
        assertThat(StructuredConcurrency.forkAll(List.<Callable<Integer>>of())).isEmpty();
    }

    @Test void forkAll_firstFailure_rethrownAsThrown_andTheOthersCancelledBeforeItReturns() {
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean finished = new AtomicBoolean();
        List<Callable<Integer>> tasks = List.of(
                () -> {
                    started.countDown();
                    try {
                        Thread.sleep(TimeUnit.SECONDS.toMillis(30));   // bounded: the scope cancels it long before
                    } catch (InterruptedException e) {
                        interrupted.set(true);
                    } finally {
                        finished.set(true);
                    }
                    return 1;
                },
                () -> {
                    started.await();
                    throw new IOException("backend refused");
                });
        assertThatThrownBy(() -> StructuredConcurrency.forkAll(tasks)).isInstanceOf(IOException.class).hasMessage("backend refused");
        assertThat(interrupted).as("the sleeping sibling was interrupted").isTrue();
        assertThat(finished).as("and had ended when forkAll returned").isTrue();
    }

    @Test void forkAll_anError_isRethrownAsTheError() {
        List<Callable<Integer>> tasks = List.of(() -> { throw new StackOverflowError("deep"); });
        assertThatThrownBy(() -> StructuredConcurrency.forkAll(tasks)).isInstanceOf(StackOverflowError.class).hasMessage("deep");
    }
}
