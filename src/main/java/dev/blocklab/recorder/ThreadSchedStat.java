package dev.blocklab.recorder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One thread's scheduler statistics from Linux's {@code /proc/thread-self/schedstat}: the nanoseconds it has spent
 * on a CPU and the nanoseconds it has spent runnable but waiting for one (on a run queue). The file is opened by
 * the thread it describes and stays that thread's; each {@link #read} is one {@code pread} of it. Use it from that
 * thread only.
 */
public final class ThreadSchedStat implements AutoCloseable {
    private static final Path FILE = Path.of("/proc/thread-self/schedstat");

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(128);

    private ThreadSchedStat(FileChannel channel) { this.channel = channel; }

    /** The calling thread's statistics, or null where the kernel does not give them (not Linux, no schedstats). */
    public static ThreadSchedStat ofCurrentThread() {
        try {
            ThreadSchedStat s = new ThreadSchedStat(FileChannel.open(FILE, StandardOpenOption.READ));
            if (s.read(new long[2])) return s;
            s.close();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            // not available here
        }
        return null;
    }

    /** Reads {@code into[0]} = nanoseconds on a CPU, {@code into[1]} = nanoseconds waiting for one; false if unreadable. */
    public boolean read(long[] into) {
        buffer.clear();
        try {
            while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) { }
        } catch (IOException e) {
            return false;
        }
        buffer.flip();
        return parse(buffer, into);
    }

    /** Parses the file's first two numbers ({@code "RUN WAIT SLICES\n"}) into {@code into}; false if malformed. */
    static boolean parse(ByteBuffer text, long[] into) {
        int field = 0;
        long value = 0;
        boolean inNumber = false;
        while (text.hasRemaining() && field < 2) {
            byte b = text.get();
            if (b >= '0' && b <= '9') {
                value = value * 10 + (b - '0');
                inNumber = true;
            } else if (inNumber) {
                into[field++] = value;
                value = 0;
                inNumber = false;
            } else if (b != ' ') {
                return false;
            }
        }
        if (inNumber && field < 2) into[field++] = value;
        return field == 2;
    }

    @Override public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing to release
        }
    }
}
