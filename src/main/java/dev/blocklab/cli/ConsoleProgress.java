package dev.blocklab.cli;

import dev.blocklab.driver.Progress;

import java.io.PrintWriter;

/**
 * Progress on stderr: on a terminal one line rewritten in place at most four times a second; otherwise a new
 * line every five seconds at most, so logs stay short.
 */
final class ConsoleProgress implements Progress {
    private final PrintWriter err;
    private final boolean terminal = System.console() != null;
    private final boolean quiet;
    private long lastNanos;
    private int lastLength;

    ConsoleProgress(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    @Override public synchronized void update(String line) {
        if (quiet) return;
        long now = System.nanoTime();
        long every = terminal ? 250_000_000L : 5_000_000_000L;
        if (now - lastNanos < every) return;
        lastNanos = now;
        if (terminal) {
            err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
        } else {
            err.println("... " + line);
        }
        err.flush();
    }

    /** Ends the in-place line before other output. */
    synchronized void clear() {
        if (terminal && lastLength > 0) {
            err.print("\r" + " ".repeat(lastLength) + "\r");
            err.flush();
            lastLength = 0;
        }
    }
}
