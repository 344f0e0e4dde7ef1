package dev.blocklab.experiment;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The blocking signal one thread of a {@link ThreadRing} waits on: its owner calls {@link #await()}, the
 * previous thread of the ring calls {@link #release()}. A release happens-before the return of the await it
 * ends. At most one release is outstanding at a time (the ring holds a single token), and every await consumes
 * it, so each implementation is a one-permit hand-off.
 */
sealed interface RingSignal {

    /** Blocks the owner until released, then consumes the release. Interruptible. */
    void await() throws InterruptedException;

    /** Wakes the owner, or lets its next await return at once. */
    void release();

    /**
     * A fresh {@link CompletableFuture} per turn, as in the article: the owner waits on the current future,
     * then installs a new one before it passes the token on, so the thread that releases it next (after the token
     * has gone round the ring) completes the new one.
     */
    final class FutureSignal implements RingSignal {
        private volatile CompletableFuture<Void> turn = new CompletableFuture<>();

        @Override public void await() throws InterruptedException {
            try {
                turn.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("ring signal failed", e.getCause());
            }
            turn = new CompletableFuture<>();
        }

        @Override public void release() { turn.complete(null); }
    }

    /** A flag guarded by the object's monitor: {@code synchronized}, {@code wait} and {@code notify}. */
    final class MonitorSignal implements RingSignal {
        private boolean released; // guarded by this

        @Override public synchronized void await() throws InterruptedException {
            while (!released) wait();
            released = false;
        }

        @Override public synchronized void release() {
            released = true;
            notify();
        }
    }

    /** A flag guarded by a {@link ReentrantLock}, waited for on one of its {@link Condition}s. */
    final class ConditionSignal implements RingSignal {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition releasedCondition = lock.newCondition();
        private boolean released; // guarded by lock

        @Override public void await() throws InterruptedException {
            lock.lock();
            try {
                while (!released) releasedCondition.await();
                released = false;
            } finally {
                lock.unlock();
            }
        }

        @Override public void release() {
            lock.lock();
            try {
                released = true;
                releasedCondition.signal();
            } finally {
                lock.unlock();
            }
        }
    }
}
