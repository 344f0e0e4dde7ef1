package dev.blocklab.recorder;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples OS threads and resident memory every {@code periodMillis} on one daemon platform thread, keeping the
 * peaks. Start it before a run and close it after; the peaks are read after close.
 */
public final class ResourceSampler implements AutoCloseable {
    private final AtomicInteger peakOsThreads = new AtomicInteger(-1);
    private final AtomicLong peakRssBytes = new AtomicLong(-1);
    private final ProcStatus status = new ProcStatus();   // read every sample without allocating
    private final Thread thread;
    private volatile boolean running = true;

    public ResourceSampler(long periodMillis) {
        sample();
        thread = Thread.ofPlatform().daemon().name("blocklab-sampler").start(() -> {
            while (running) {
                sample();
                try {
                    Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    private synchronized void sample() {   // the sampler's thread, and the constructor's and close's before and after it
        if (!status.refresh()) return;
        peakOsThreads.accumulateAndGet(status.osThreads(), Math::max);
        peakRssBytes.accumulateAndGet(status.rssBytes(), Math::max);
    }

    public int peakOsThreads() { return peakOsThreads.get(); }

    public long peakRssBytes() { return peakRssBytes.get(); }

    @Override public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
        synchronized (this) {
            status.close();
        }
    }
}
