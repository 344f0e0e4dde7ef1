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
    private final long baseMillis;

    public HlogFile(Path path) { this(path, System.currentTimeMillis()); }

    /**
     * A log whose start and base time are {@code baseMillis} (epoch milliseconds): a shard passes the common
     * start, so the interval timestamps of every shard's log are on one time base.
     */
    public HlogFile(Path path, long baseMillis) {
        this.path = path;
        this.baseMillis = baseMillis;
        try {
            if (path.toAbsolutePath().getParent() != null) Files.createDirectories(path.toAbsolutePath().getParent());
            out = new PrintStream(path.toFile(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--hlog: cannot write " + path + ": " + e.getMessage());
        }
        writer = new HistogramLogWriter(out);
        writer.outputComment("blocklab attack: latency from intended send time; values in milliseconds");
        writer.outputLogFormatVersion();
        writer.outputStartTime(baseMillis);
        writer.setBaseTime(baseMillis);
        writer.outputLegend();
    }

    public Path path() { return path; }

    @Override public synchronized void onInterval(long startNanos, long endNanos, Histogram latencyNanos) {
        writer.outputIntervalHistogram(startNanos / 1e9, endNanos / 1e9, latencyNanos, 1e6);
    }

    @Override public synchronized void onEnd() {
        out.close();
    }

}
