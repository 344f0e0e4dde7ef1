package dev.blocklab.misuse;

import java.time.Duration;

/**
 * A class whose initialiser blocks for {@link ClassInitWait#initialiserHoldNanos}. {@link ClassInitWait} defines a
 * fresh copy of it in its own class loader for every run, so that every run waits for an initialisation.
 */
public final class SlowInit {
    static {
        try {
            Thread.sleep(Duration.ofNanos(ClassInitWait.initialiserHoldNanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SlowInit() {}

    /** Touching this initialises the class. */
    public static int ready() { return 1; }
}
