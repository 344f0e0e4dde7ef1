package dev.blocklab.experiment;

/**
 * One point of {@code reproduce thread-switch}: a ring of {@code threads} threads passing a token
 * {@code handoffs} times, each turn summing and checking a block of {@code blockBytes}.
 *
 * @param variant         {@code platform-future}, {@code platform-monitor}, {@code virtual-future} or
 *                        {@code virtual-condition}: the kind of thread and how one signals the next
 * @param threads         threads in the ring; 1 is the floor (a thread signalling itself, no switch)
 * @param blockBytes      bytes in each thread's {@code int} block, summed every turn
 * @param handoffs        turns timed, split evenly over the threads
 * @param sumsChecked     block sums computed and found right; equals {@code handoffs} in a good run
 * @param wallMillis      from releasing the first thread to the end of the last turn, in milliseconds
 * @param microsPerSwitch {@code wallMillis * 1000 / handoffs}: microseconds per hand-off
 */
public record ThreadSwitchRow(String variant, int threads, int blockBytes, long handoffs, long sumsChecked,
                              double wallMillis, double microsPerSwitch) {
    public ThreadSwitchRow {
        if (threads < 1) throw new IllegalArgumentException("threads must be >= 1");
        if (blockBytes < 0) throw new IllegalArgumentException("blockBytes must be >= 0");
        if (handoffs < 1) throw new IllegalArgumentException("handoffs must be >= 1");
    }

    static ThreadSwitchRow of(ThreadRing.Lap lap) {
        return new ThreadSwitchRow(lap.variant().label(), lap.threads(), lap.blockInts() * Integer.BYTES,
                lap.handoffs(), lap.sumsChecked(), lap.wallMillis(), lap.microsPerSwitch());
    }
}
