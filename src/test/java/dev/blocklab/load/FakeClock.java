package dev.blocklab.load;

import java.util.ArrayList;
import java.util.List;

/**
 * A clock for tests that only moves when a send loop sleeps (by the time asked plus {@code oversleepNanos}) or a
 * test moves it ({@code now += cost}); it records every sleep asked for. Starts at {@link #START}, not 0, so code
 * that confuses a time with an elapsed time shows.
 */
public final class FakeClock implements SendLoop.NanoClock, SendLoop.Sleeper {
    public static final long START = 5_000_000_000L;
    public long now = START;
    public long oversleepNanos;
    public final List<Long> sleeps = new ArrayList<>();

    @Override public long nanoTime() { return now; }

    @Override public void sleepNanos(long nanos) {
        sleeps.add(nanos);
        now += nanos + oversleepNanos;
    }
}
