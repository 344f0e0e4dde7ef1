package dev.blocklab.result;

import java.util.Objects;

/**
 * What a run cost the process. CPU time and context switches come from {@code getrusage} for the whole process
 * (GC and JIT threads included); allocation is the JVM-wide total ({@code ThreadMXBean.getTotalThreadAllocatedBytes},
 * virtual threads included); platform threads are the JVM's live-thread peak (virtual threads excluded); OS
 * threads and RSS are sampled from {@code /proc/self/status} every 10 ms. -1 where a source is unavailable.
 *
 * @param peakPlatformThreads    JVM-wide peak of live platform threads during the run
 * @param peakOsThreads          peak OS threads of the process, sampled
 * @param platformThreadsStarted platform threads started during the run, those its model started when it was built included
 * @param leftoverThreads        platform threads started by the run and still alive after the model closed
 * @param cpuMillis              user plus system CPU time of the process from the first send to the last completion
 * @param contextSwitches        voluntary and involuntary context switches of the process, in the same window
 * @param allocatedBytes         bytes allocated on the heap by all threads, in the same window
 * @param peakRssBytes           peak resident memory of the process, sampled
 */
public record Resources(int peakPlatformThreads, int peakOsThreads, long platformThreadsStarted, int leftoverThreads,
                        double cpuMillis, ContextSwitches contextSwitches, long allocatedBytes, long peakRssBytes) {
    public Resources {
        Objects.requireNonNull(contextSwitches, "contextSwitches");
    }

    /**
     * The cost of both runs, one after the other: totals (CPU, allocation, threads started and left over, context
     * switches) added, peaks the larger of the two.
     */
    public Resources plus(Resources other) {
        return new Resources(Math.max(peakPlatformThreads, other.peakPlatformThreads), Math.max(peakOsThreads, other.peakOsThreads),
                platformThreadsStarted + other.platformThreadsStarted, leftoverThreads + other.leftoverThreads,
                cpuMillis + other.cpuMillis, contextSwitches.plus(other.contextSwitches),
                allocatedBytes < 0 || other.allocatedBytes < 0 ? -1 : allocatedBytes + other.allocatedBytes,
                Math.max(peakRssBytes, other.peakRssBytes));
    }
}
