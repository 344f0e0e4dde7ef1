package dev.blocklab.misuse;

/** The caller's source line, to name the line a wrong case blocks on without hard-coding its number. */
public final class Lines {
    private static final StackWalker WALKER = StackWalker.getInstance();

    private Lines() {}

    /** The line of the statement that calls this; write the blocking call on the same line. */
    public static int here() {
        return WALKER.walk(frames -> frames.skip(1).findFirst().orElseThrow()).getLineNumber();
    }
}
