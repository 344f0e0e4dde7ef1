package dev.blocklab.experiment;

import dev.blocklab.recorder.ProcessMetrics;
import dev.blocklab.recorder.ResourceSampler;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Batches of waits made by the bare JDK with no engine (no request objects, no model, no recorder): the floor
 * under an engine row that makes the same waits. Measured the way the driver measures a run: after a full GC,
 * executors made before the clock starts, wall time from the first start to the last completion.
 */
final class BareBatches {
    private BareBatches() {}

    /**
     * One measured bare batch.
     *
     * @param successes      waits that completed normally
     * @param cpuMillis      process CPU time (getrusage) during the batch
     * @param allocatedBytes bytes the JVM allocated during the batch (every thread)
     * @param peakRssBytes   the process's resident set at its highest during the batch, sampled every 10 ms (a
     *                       process keeps what it once touched, so a batch after a larger one reads that one's peak)
     */
    record BareRun(double wallMillis, long successes, double cpuMillis, long allocatedBytes, long peakRssBytes) {}

    /** Makes a batch of bare waits, ready to start. */
    @FunctionalInterface
    interface Batch {
        Prepared prepare();
    }

    /** A batch ready to start: {@link #start()} sends every wait; {@code done} opens when all have completed. */
    abstract static class Prepared implements AutoCloseable {
        final int requests;
        final CountDownLatch done;
        final LongAdder completed = new LongAdder();

        Prepared(int requests) {
            this.requests = requests;
            this.done = new CountDownLatch(requests);
        }

        abstract void start();

        @Override public void close() {}
    }

    /** {@code requests} virtual threads ({@code Thread.startVirtualThread}), each sleeping {@code callNanos}. */
    static Batch virtualSleeps(int requests, long callNanos) {
        Duration call = Duration.ofNanos(callNanos);
        return () -> new Prepared(requests) {
            @Override void start() {
                for (int i = 0; i < requests; i++) {
                    Thread.startVirtualThread(() -> {
                        try {
                            Thread.sleep(call);
                            completed.increment();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            done.countDown();
                        }
                    });
                }
            }
        };
    }

    /** {@code requests} futures, each completed after {@code callNanos} by one of {@code timers} timer threads. */
    static Batch timerFutures(int requests, long callNanos, int timers) {
        return () -> {
            ScheduledThreadPoolExecutor[] pool = new ScheduledThreadPoolExecutor[timers];
            for (int i = 0; i < timers; i++) pool[i] = new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().daemon().factory());
            return new Prepared(requests) {
                @Override void start() {
                    for (int i = 0; i < requests; i++) {
                        CompletableFuture<Object> call = new CompletableFuture<>();
                        pool[i % timers].schedule(() -> call.complete(99L), callNanos, TimeUnit.NANOSECONDS);
                        call.whenComplete((v, e) -> {
                            if (e == null) completed.increment();
                            done.countDown();
                        });
                    }
                }

                @Override public void close() {
                    for (ScheduledThreadPoolExecutor t : pool) t.shutdownNow();
                }
            };
        };
    }

    /** Runs one batch after a full GC and measures it. */
    static BareRun runOnce(Batch batch) {
        System.gc();
        ResourceSampler sampler = new ResourceSampler(10);
        double wallMillis;
        long successes;
        ProcessMetrics.Snapshot before;
        ProcessMetrics.Snapshot after;
        try (Prepared b = batch.prepare()) {   // executors are made before the clock starts, as the engine's are
            before = ProcessMetrics.snapshot();
            long start = System.nanoTime();
            b.start();
            await(b.done);
            wallMillis = (System.nanoTime() - start) / 1e6;
            after = ProcessMetrics.snapshot();
            successes = b.completed.sum();
        } finally {
            sampler.close();
        }
        return new BareRun(wallMillis, successes, (after.cpuNanos() - before.cpuNanos()) / 1e6,
                after.allocatedBytes() - before.allocatedBytes(), sampler.peakRssBytes());
    }

    private static void await(CountDownLatch done) {
        try {
            if (!done.await(5, TimeUnit.MINUTES)) throw new IllegalStateException("the bare batch did not finish within 5 min");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the bare batch", e);
        }
    }
}
