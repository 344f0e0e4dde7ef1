package dev.blocklab.audit;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One time a thread blocked, as JFR or the watchdog saw it: the input of {@link Classifier}.
 *
 * @param event          the JFR event type ({@code jdk.ThreadSleep}, ...) or {@code watchdog} for a stall
 * @param threadName     the thread's name (a virtual thread's is often empty)
 * @param virtual        true for a virtual thread
 * @param threadGroup    the thread's group, empty when unknown ({@code CarrierThreads} for carriers)
 * @param start          when the blocking began (wall clock), which decides the run it belongs to
 * @param durationNanos  how long the thread was blocked, in nanoseconds
 * @param stack          the stack, innermost frame first; possibly truncated at the bottom
 */
public record Blocking(String event, String threadName, boolean virtual, String threadGroup, Instant start,
                       long durationNanos, List<Frame> stack) {
    public static final String WATCHDOG = "watchdog";

    public Blocking {
        Objects.requireNonNull(event, "event");
        threadName = threadName == null ? "" : threadName;
        threadGroup = threadGroup == null ? "" : threadGroup;
        Objects.requireNonNull(start, "start");
        stack = List.copyOf(stack);
    }

    /** True when some frame is {@code className.method}. */
    public boolean has(String className, String method) {
        for (Frame f : stack) if (f.is(className, method)) return true;
        return false;
    }
}
