package dev.blocklab.attack;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Streams every response to a CSV file as it arrives, one line each:
 * {@code index,target,intended_ns,sent_ns,latency_ns,service_ns,status,bytes_in,bytes_out,error} (times after
 * the attack's start). Lines are written under a lock and flushed at each interval, so an interrupted attack
 * keeps everything up to its last second.
 */
public final class HitsFile implements AttackListener {
    public static final String HEADER = "index,target,intended_ns,sent_ns,latency_ns,service_ns,status,bytes_in,bytes_out,error";
    private final Path path;
    private final BufferedWriter writer;

    public HitsFile(Path path) {
        this.path = path;
        try {
            if (path.toAbsolutePath().getParent() != null) Files.createDirectories(path.toAbsolutePath().getParent());
            writer = Files.newBufferedWriter(path);
            writer.write(HEADER);
            writer.newLine();
        } catch (IOException e) {
            throw new IllegalArgumentException("--responses: cannot write " + path + ": " + dev.blocklab.TextFiles.reason(e));
        }
    }

    public Path path() { return path; }

    @Override public void onHit(Hit h) {
        String line = h.index() + "," + h.target() + "," + h.intendedNanos() + "," + h.sentNanos() + "," + h.latencyNanos()
                + "," + h.serviceNanos() + "," + h.status() + "," + h.bytesIn() + "," + h.bytesOut() + ","
                + (h.error() == null ? "" : '"' + h.error().replace("\"", "\"\"") + '"');
        synchronized (this) {
            try {
                writer.write(line);
                writer.newLine();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + path + ": " + dev.blocklab.TextFiles.reason(e), e);
            }
        }
    }

    @Override public synchronized void onInterval(long startNanos, long endNanos, org.HdrHistogram.Histogram latencyNanos) {
        try {
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + dev.blocklab.TextFiles.reason(e), e);
        }
    }

    @Override public synchronized void onEnd() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + dev.blocklab.TextFiles.reason(e), e);
        }
    }
}
