package dev.blocklab.attack;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes each interval's latency histogram (from intended send time, values in milliseconds) to an HdrHistogram
 * interval log ({@code .hlog}), readable by HdrHistogram's {@code HistogramLogProcessor} and plotters.
 */
public final class HlogFile implements AttackListener {
    private final Path path;
    private final PrintStream out;
    private final HistogramLogWriter writer;
    private final java.util.function.LongSupplier baseMillis;
    private boolean headerWritten;

    public HlogFile(Path path) { this(path, System.currentTimeMillis()); }

    /**
     * A log whose start and base time are {@code baseMillis} (epoch milliseconds): a shard passes the common
     * start, so the interval timestamps of every shard's log are on one time base.
     */
    public HlogFile(Path path, long baseMillis) { this(path, () -> baseMillis); }

    /** As {@link #HlogFile(Path, long)}, the base time asked when the first interval is written (a start known late). */
    public HlogFile(Path path, java.util.function.LongSupplier baseMillis) {
        this.path = path;
        this.baseMillis = baseMillis;
        try {
            if (path.toAbsolutePath().getParent() != null) Files.createDirectories(path.toAbsolutePath().getParent());
            out = new PrintStream(path.toFile(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--hlog: cannot write " + path + ": " + dev.blocklab.TextFiles.reason(e));
        }
        writer = new HistogramLogWriter(out);
    }

    private void header() {
        if (headerWritten) return;
        headerWritten = true;
        long base = baseMillis.getAsLong();
        writer.outputComment("blocklab attack: latency from intended send time; values in milliseconds");
        writer.outputLogFormatVersion();
        writer.outputStartTime(base);
        writer.setBaseTime(base);
        writer.outputLegend();
    }

    public Path path() { return path; }

    @Override public synchronized void onInterval(long startNanos, long endNanos, Histogram latencyNanos) {
        header();
        writer.outputIntervalHistogram(startNanos / 1e9, endNanos / 1e9, latencyNanos, 1e6);
    }

    @Override public synchronized void onEnd() {
        header();
        out.close();
    }

}
