package dev.blocklab.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A server command in the foreground ({@code serve}, {@code backend}): it runs until Ctrl-C or SIGTERM, when a
 * shutdown hook runs {@code stop}, or until the waiting thread is interrupted (tests), when {@code stop} runs on
 * that thread and the hook is removed. {@code stop} runs once either way.
 */
final class Foreground {
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicBoolean once = new AtomicBoolean();
    private final Runnable stop;
    private final Thread hook;

    Foreground(String name, Runnable stop) {
        this.stop = stop;
        this.hook = new Thread(this::stopOnce, name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private void stopOnce() {
        if (!once.compareAndSet(false, true)) return;
        try {
            stop.run();
        } finally {
            stopped.countDown();
        }
    }

    /**
     * Waits until stopped. An interrupted wait stops here, then restores the interrupt status (after {@code stop},
     * so closing the server is not itself interrupted).
     */
    void await() {
        try {
            stopped.await();
        } catch (InterruptedException e) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it stops the server
            }
            stopOnce();
            Thread.currentThread().interrupt();
        }
    }
}
