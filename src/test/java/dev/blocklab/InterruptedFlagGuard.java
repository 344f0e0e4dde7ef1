package dev.blocklab;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every test starts on a runner thread that is not interrupted: a test (or the code it runs) that leaves the flag
 * set is named on standard error and the flag is cleared, so it cannot make the next test's first blocking wait
 * throw at once (CI once failed in {@code ThreadRingTest} that way, the leaking test unknown). Registered for every
 * test through {@code META-INF/services} and {@code junit.jupiter.extensions.autodetection.enabled}.
 */
public final class InterruptedFlagGuard implements AfterEachCallback, AfterAllCallback {
    @Override public void afterEach(ExtensionContext context) { clear(context); }

    @Override public void afterAll(ExtensionContext context) { clear(context); }

    private static void clear(ExtensionContext context) {
        if (Thread.interrupted())
            System.err.println("blocklab tests: " + context.getUniqueId() + " left thread " + Thread.currentThread().getName()
                    + " interrupted; the flag is cleared for the next test");
    }
}
