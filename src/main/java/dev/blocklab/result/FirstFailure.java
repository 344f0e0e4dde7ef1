package dev.blocklab.result;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The first failure a run recorded, kept with the top of its stack so a report can say where it was thrown (the
 * counts per cause are in {@link Counts#failureCauses()}).
 *
 * @param type    the exception's class name
 * @param message its message, or null
 * @param frames  the innermost stack frames, {@code Class.method(File:line)}, at most {@value #FRAMES}, after the
 *                JDK's own frames at the top (reflection and constructor plumbing) are skipped
 */
public record FirstFailure(String type, String message, List<String> frames) {
    /** How many frames a failure keeps. */
    public static final int FRAMES = 5;

    public FirstFailure {
        Objects.requireNonNull(type, "type");
        frames = List.copyOf(frames == null ? List.of() : frames);
    }

    /**
     * The failure {@code t} with its innermost {@value #FRAMES} frames below the JDK's own ({@code java.},
     * {@code jdk.}, {@code sun.} classes) at the top of its stack; null for null.
     */
    public static FirstFailure of(Throwable t) {
        if (t == null) return null;
        StackTraceElement[] stack = t.getStackTrace();
        int first = 0;
        while (first < stack.length && isJdk(stack[first].getClassName())) first++;
        if (first == stack.length) first = 0;
        return new FirstFailure(t.getClass().getName(), t.getMessage(),
                Arrays.stream(stack, first, stack.length).limit(FRAMES).map(StackTraceElement::toString).toList());
    }

    private static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.");
    }

    /** {@code Type: message}, the key its count has among the failure causes. */
    public String cause() { return type + ": " + message; }

    /**
     * The class that makes the failures a workload draws (its {@code failure:} field), named here so this package
     * needs no other; {@code RunResultTest} draws one through it.
     */
    private static final String DRAWING_CLASS = "dev.blocklab.workload.CallInvocation.";

    /** True when the workload drew this failure: blocklab's own code threw it, so its frames say nothing. */
    public boolean drawn() { return !frames.isEmpty() && frames.getFirst().startsWith(DRAWING_CLASS + "instantiate("); }

    /**
     * {@code Type: message at frame < frame < ...}, innermost first, on one line; a failure the workload drew says so
     * instead of its frames.
     */
    public String oneLine() {
        if (drawn()) return cause() + " (drawn by the workload's failure probability)";
        return frames.isEmpty() ? cause() : cause() + " at " + String.join(" < ", frames);
    }
}
