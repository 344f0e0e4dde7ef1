package dev.blocklab.experiment;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A ring of N threads passing one token, to time a blocking hand-off (seed 000, Figure 2). Each turn the token
 * holder sums its own {@code int} block, checks the sum against the one computed at set-up, bumps the shared
 * hand-off counter and releases the next thread's {@link RingSignal}; then it waits for its own signal again.
 * {@code handoffs} turns are split evenly over the threads.
 *
 * <p>Use: construct (creates the blocks and starts every thread, each of which parks on its signal), then
 * {@link #run} once, then {@link #close} (try-with-resources). A ring is used from one controlling thread.
 *
 * <p>Implementation overview. The clock starts only after every ring thread has counted down {@code parked}
 * (it is at, or about to enter, its first wait), so thread creation and start-up are outside the measurement.
 * The controller then releases thread 0 and waits on {@code finished}, which the thread making the last hand-off
 * completes instead of releasing its successor; the clock stops there. Because a single token circulates, the
 * plain fields touched each turn ({@code handoffsDone}, {@code visits}) are only ever written by the token holder:
 * each release happens-before the next thread's await returns, which orders every write in one chain, and
 * completing {@code finished} publishes the last ones to the controller. After its last turn a thread simply
 * returns, so all threads end on their own; {@link #run} joins them after the clock stops and fails if one does
 * not end. A sum mismatch or any other error in a ring thread completes {@code finished} exceptionally and
 * interrupts the others (every signal's await is interruptible), so a failed ring ends instead of stalling.
 */
final class ThreadRing implements AutoCloseable {

    /**
     * One timed run.
     *
     * @param handoffs     turns taken in total (each one a signal from one thread to the next)
     * @param elapsedNanos from releasing thread 0 to the last turn's end
     * @param sumsChecked  block sums computed and found right, one per turn
     */
    record Lap(ThreadSwitchVariant variant, int threads, int blockInts, long handoffs, long elapsedNanos,
               long sumsChecked) {
        double microsPerSwitch() { return elapsedNanos / 1_000.0 / handoffs; }

        double wallMillis() { return elapsedNanos / 1e6; }
    }

    private static final long JOIN_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final ThreadSwitchVariant variant;
    private final int blockInts;
    private final long handoffs;
    private final long turnsPerThread;
    private final int[][] blocks;
    private final int[] expectedSums;
    private final RingSignal[] signals;
    private final Thread[] threads;
    private final long[] sumsChecked;  // slot i written by thread i before it ends, read after join
    private final int[] visits;        // thread index per hand-off, or null when not recording
    private final CountDownLatch parked;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private long handoffsDone;         // written by the token holder only
    private boolean ran;

    /**
     * Creates the blocks and starts the threads; they park until {@link #run}.
     *
     * @param threadCount  threads in the ring, at least 1
     * @param blockInts    ints in each thread's block (4 bytes each), at least 0
     * @param handoffs     turns in total, a positive multiple of {@code threadCount}
     * @param recordVisits keep which thread took each turn, for {@link #visits()} (tests; at most 2^31 - 1 turns)
     */
    ThreadRing(ThreadSwitchVariant variant, int threadCount, int blockInts, long handoffs, boolean recordVisits) {
        if (threadCount < 1) throw new IllegalArgumentException("a ring needs at least 1 thread, got " + threadCount);
        if (blockInts < 0) throw new IllegalArgumentException("block size must be >= 0 ints, got " + blockInts);
        if (handoffs < threadCount || handoffs % threadCount != 0)
            throw new IllegalArgumentException(handoffs + " hand-offs cannot be split evenly over " + threadCount + " threads");
        if (recordVisits && handoffs > Integer.MAX_VALUE)
            throw new IllegalArgumentException("cannot record " + handoffs + " visits");
        this.variant = variant;
        this.blockInts = blockInts;
        this.handoffs = handoffs;
        this.turnsPerThread = handoffs / threadCount;
        this.blocks = new int[threadCount][];
        this.expectedSums = new int[threadCount];
        this.signals = new RingSignal[threadCount];
        this.threads = new Thread[threadCount];
        this.sumsChecked = new long[threadCount];
        this.visits = recordVisits ? new int[(int) handoffs] : null;
        this.parked = new CountDownLatch(threadCount);
        for (int i = 0; i < threadCount; i++) {
            int[] block = new int[blockInts];
            for (int j = 0; j < blockInts; j++) block[j] = 31 * i + 7 * j + 1;
            blocks[i] = block;
            expectedSums[i] = sum(block);
            signals[i] = variant.newSignal();
        }
        for (int i = 0; i < threadCount; i++) {
            int index = i;
            threads[i] = variant.newThread(i, () -> turns(index));
        }
        int started = 0;
        try {
            for (; started < threadCount; started++) threads[started].start();
        } catch (RuntimeException | Error e) {
            for (int i = 0; i < started; i++) threads[i].interrupt();
            for (int i = 0; i < started; i++) joinQuietly(threads[i]);
            throw e;
        }
    }

    /**
     * Times the ring: waits until every thread is parked, releases thread 0, waits for the last hand-off, then
     * joins every thread. Call once.
     *
     * @param timeoutNanos bound on each wait (threads parking, the hand-offs, the threads ending)
     * @throws IllegalStateException if a ring thread failed (its error is the cause), the ring stalled past the
     *                               timeout, or a thread did not end
     */
    Lap run(long timeoutNanos) throws InterruptedException {
        if (ran) throw new IllegalStateException("a ring runs once");
        ran = true;
        if (!parked.await(timeoutNanos, TimeUnit.NANOSECONDS))
            throw stalled("threads did not all start within " + timeoutNanos / 1_000_000 + " ms");
        long start = System.nanoTime();
        signals[0].release();
        try {
            finished.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            close();
            throw new IllegalStateException(variant.label() + " ring of " + threads.length + " failed: "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw stalled("hand-offs did not finish within " + timeoutNanos / 1_000_000 + " ms");
        }
        long elapsedNanos = System.nanoTime() - start;
        long deadline = System.nanoTime() + timeoutNanos;
        for (Thread thread : threads) {
            long left = Math.max(1, deadline - System.nanoTime());
            if (!thread.join(Duration.ofNanos(left)))
                throw stalled(thread.getName() + " did not end after its last turn");
        }
        long checked = 0;
        for (long c : sumsChecked) checked += c;
        return new Lap(variant, threads.length, blockInts, handoffsDone, elapsedNanos, checked);
    }

    /** Which thread took each turn, in turn order; only when constructed with {@code recordVisits}. */
    int[] visits() {
        if (visits == null) throw new IllegalStateException("visits were not recorded");
        return visits.clone();
    }

    /** True when no ring thread is alive. */
    boolean allThreadsEnded() {
        for (Thread thread : threads) if (thread.isAlive()) return false;
        return true;
    }

    /** Changes one int of a thread's block after its expected sum was taken, so its next check fails (tests). */
    void corruptBlock(int thread) {
        if (ran) throw new IllegalStateException("corrupt the block before the run");
        blocks[thread][0] += 1;
    }

    /** Interrupts any ring thread still alive and waits for each to end ({@link #joinQuietly}). Idempotent. */
    @Override public void close() {
        for (Thread thread : threads) if (thread.isAlive()) thread.interrupt();
        for (Thread thread : threads) {
            joinQuietly(thread);
            if (thread.isAlive()) throw new IllegalStateException(thread.getName() + " did not end when interrupted");
        }
    }

    private void turns(int index) {
        RingSignal own = signals[index];
        RingSignal next = signals[(index + 1) % signals.length];
        int[] block = blocks[index];
        int expected = expectedSums[index];
        long checked = 0;
        try {
            parked.countDown();
            for (long turn = 0; turn < turnsPerThread; turn++) {
                own.await();
                int sum = sum(block);
                if (sum != expected)
                    throw new IllegalStateException("thread " + index + ": block sum " + sum + ", expected " + expected);
                checked++;
                long done = handoffsDone;
                if (visits != null) visits[(int) done] = index;
                handoffsDone = done + 1;
                if (done + 1 == handoffs) finished.complete(null);
                else next.release();
            }
        } catch (InterruptedException e) {
            // close() or another thread's failure: leave quietly
        } catch (Throwable t) {
            fail(t);
        } finally {
            sumsChecked[index] = checked;
        }
    }

    private void fail(Throwable t) {
        finished.completeExceptionally(t);
        for (Thread thread : threads) if (thread != Thread.currentThread()) thread.interrupt();
    }

    private IllegalStateException stalled(String why) {
        close();
        return new IllegalStateException(variant.label() + " ring of " + threads.length + ": " + why);
    }

    private static int sum(int[] block) {
        int acc = 0;
        for (int value : block) acc += value;
        return acc;
    }

    /**
     * Waits up to 30 s for {@code thread} to end, also when the waiting thread is interrupted: its flag is kept for
     * after the wait, not allowed to cut it short (a join by an interrupted thread throws at once, and close then
     * reported a live ring thread; CI failed once that way).
     */
    private static void joinQuietly(Thread thread) {
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + JOIN_NANOS;
        while (thread.isAlive() && deadline - System.nanoTime() > 0) {
            try {
                thread.join(Duration.ofNanos(deadline - System.nanoTime()));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
