package dev.blocklab.recorder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads fields of {@code /proc/self/status} (Linux) without allocating: one channel kept open and one buffer, the
 * file read again from its start at each {@link #refresh}. A sampler polling every 10 ms with
 * {@code Files.readAllLines} allocated about 6 MB a second in the JVM it measured. Not thread-safe: one thread
 * owns an instance. Fields read -1 where there is no such file.
 */
final class ProcStatus implements AutoCloseable {
    private static final byte[] THREADS = "Threads:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VM_RSS = "VmRSS:".getBytes(StandardCharsets.US_ASCII);

    private final FileChannel channel;   // null where the file cannot be opened
    private final ByteBuffer buffer = ByteBuffer.allocate(16 * 1024);
    private int length = -1;

    ProcStatus() {
        FileChannel c = null;
        try {
            c = FileChannel.open(Path.of("/proc/self/status"));
        } catch (IOException | UnsupportedOperationException | SecurityException notLinux) {
            // every field reads -1
        }
        channel = c;
    }

    /** Reads the file again from its start; false where it cannot be read. */
    boolean refresh() {
        length = -1;
        if (channel == null) return false;
        buffer.clear();
        try {
            while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
                // procfs hands the file over in pieces
            }
        } catch (IOException e) {
            return false;
        }
        length = buffer.position();
        return true;
    }

    /** The process's OS threads at the last {@link #refresh}, or -1. */
    int osThreads() { return (int) field(THREADS, 1); }

    /** The process's resident set size in bytes at the last {@link #refresh}, or -1. */
    long rssBytes() { return field(VM_RSS, 1024); }

    /** The number after {@code name} at the start of a line, times {@code multiplier}; -1 when absent. */
    private long field(byte[] name, long multiplier) {
        byte[] a = buffer.array();
        int line = 0;
        while (line < length) {
            if (startsWith(a, line, name)) {
                int i = line + name.length;
                while (i < length && (a[i] == ' ' || a[i] == '\t')) i++;
                long value = 0;
                int digits = 0;
                for (; i < length && a[i] >= '0' && a[i] <= '9'; i++, digits++) value = value * 10 + (a[i] - '0');
                return digits == 0 ? -1 : value * multiplier;
            }
            while (line < length && a[line] != '\n') line++;
            line++;
        }
        return -1;
    }

    private boolean startsWith(byte[] a, int at, byte[] prefix) {
        if (at + prefix.length > length) return false;
        for (int i = 0; i < prefix.length; i++) if (a[at + i] != prefix[i]) return false;
        return true;
    }

    @Override public void close() {
        if (channel == null) return;
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing held
        }
    }
}
