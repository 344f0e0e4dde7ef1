package dev.blocklab.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A server command in the foreground ({@code serve}, {@code backend}): it runs until Ctrl-C or SIGTERM, when a
 * shutdown hook runs {@code stop}, or until the waiting thread is interrupted (tests), when {@code stop} runs on
 * that thread and the hook is removed. {@code stop} runs once either way and answers an exit code: on a signal, a
 * code other than 0 ends the process with it ({@link Runtime#halt}, once {@code stop} has printed and closed what
 * it owns), where the signal's own (130, 143) would otherwise stand; the command answers it in the other case.
 * {@code halt} is the only way to set the code after a signal, and it ends the JVM's other shutdown hooks where
 * they stand (JFR's removal of its disk repository under the temporary directory, say), so {@code stop} closes
 * everything the command started before it answers.
 */
final class Foreground {
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicBoolean once = new AtomicBoolean();
    private final java.util.function.IntSupplier stop;
    private final Thread hook;

    Foreground(String name, Runnable stop) {
        this(name, () -> {
            stop.run();
            return 0;
        });
    }

    Foreground(String name, java.util.function.IntSupplier stop) {
        this.stop = stop;
        this.hook = new Thread(() -> {
            int code = stopOnce();
            if (code != 0) Runtime.getRuntime().halt(code);
        }, name);
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private int stopOnce() {
        if (!once.compareAndSet(false, true)) return 0;
        try {
            return stop.getAsInt();
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
