package dev.blocklab.cli;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code reproduce}, {@code run}, {@code capacity} and {@code advise} print when Ctrl-C (SIGINT) or SIGTERM
 * stops them: what finished, what was running, and where it is saved (rows stream to the results file as they are
 * measured, each finished experiment's whole result follows them, so the file holds everything measured).
 */
final class Interrupted {
    private Interrupted() {}

    /**
     * {@code blocklab: interrupted during frameworks (2 of 3 experiments); finished 1 of 3 experiments: task-graph; saved to
     * results/x.jsonl (rebuild the report: blocklab report results/x.jsonl)}. The steps run in the order of {@code all}
     * (a name may appear twice): {@code finished} of them are done, and the one at index {@code running} runs (-1:
     * none does).
     */
    static String summary(String steps, List<String> all, int finished, int running, dev.blocklab.report.ResultsFile file, Path html) {
        return summary(steps, all, finished, running, "", file, html);
    }

    /** As {@link #summary(String, List, int, int, ResultsFile, Path)}, with {@code partial} (what the stopped step kept) after what finished. */
    static String summary(String steps, List<String> all, int finished, int running, String partial, dev.blocklab.report.ResultsFile file, Path html) {
        file.removeIfEmpty();   // the command's close() will not run: leave no empty file for 'report results/*.jsonl'
        return summary(steps, all, finished, running, partial, file.path(), html);
    }

    /** {@link #summary} of the results file at {@code saved}, as it stands. */
    static String summary(String steps, List<String> all, int finished, int running, Path saved, Path html) {
        return summary(steps, all, finished, running, "", saved, html);
    }

    private static String summary(String steps, List<String> all, int finished, int running, String partial, Path saved, Path html) {
        StringBuilder b = new StringBuilder("blocklab: interrupted");
        if (running >= 0 && running < all.size())
            b.append(" during ").append(all.get(running)).append(" (").append(running + 1).append(" of ").append(all.size()).append(' ')
                    .append(steps).append(')');
        List<String> done = all.subList(0, Math.max(0, Math.min(finished, all.size())));
        b.append("; finished ").append(done.size()).append(" of ").append(all.size()).append(' ').append(steps)
                .append(done.isEmpty() ? "" : ": " + String.join(", ", done));
        if (!partial.isEmpty()) b.append("; ").append(partial);
        if (!java.nio.file.Files.exists(saved)) return b.append("; nothing saved").toString();   // an empty file, removed
        if (!holdsAnything(saved)) return b.append("; nothing saved yet (").append(saved).append(" is empty)").toString();
        b.append("; saved to ").append(saved);
        if (html != null && !done.isEmpty()) b.append(" and ").append(html);
        b.append(" (rebuild the report: blocklab report ").append(saved).append(')');
        return b.toString();
    }

    /** True when the results file has anything in it: rows of an unfinished step count ({@code reproduce} streams them). */
    private static boolean holdsAnything(Path saved) {
        try {
            return java.nio.file.Files.size(saved) > 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Registers a shutdown hook that ends the progress line and prints {@code summary} (computed when the signal
     * comes); {@link #remove} it once the work is done.
     */
    static Thread onSignal(String name, ConsoleProgress console, java.io.PrintWriter err, java.util.function.Supplier<String> summary) {
        return onSignal(name, console, err, () -> {}, summary);
    }

    /**
     * As {@link #onSignal(String, ConsoleProgress, java.io.PrintWriter, java.util.function.Supplier)}, running
     * {@code stopAndWait} first: it asks the work to stop and waits (bounded) for what it keeps to be saved.
     */
    static Thread onSignal(String name, ConsoleProgress console, java.io.PrintWriter err, Runnable stopAndWait,
                           java.util.function.Supplier<String> summary) {
        Thread hook = new Thread(() -> {
            stopAndWait.run();
            console.clear();
            err.println(summary.get());
            err.flush();
        }, name);
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {   // Ctrl-C came before the work began (while a server started, say)
            throw new IllegalStateException("interrupted before the work began: nothing measured, nothing saved", shuttingDown);
        }
        return hook;
    }

    /**
     * What a signal does first where an in-process driver runs: stop it (the run in progress keeps or discards what it
     * completed), then wait for {@code saved} to open (the command has written its file), at most the driver's grace
     * and 15 s.
     */
    static Runnable stopAndAwait(dev.blocklab.driver.InProcessDriver driver, java.util.concurrent.CountDownLatch saved) {
        return () -> {
            driver.stop();
            try {
                saved.await(dev.blocklab.driver.InProcessDriver.STOP_GRACE_NANOS / 1_000_000 + 15_000, java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    /** Removes a shutdown hook that is no longer needed; harmless when the JVM is already shutting down. */
    static void remove(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running
        }
    }
}
