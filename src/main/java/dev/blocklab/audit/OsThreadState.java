package dev.blocklab.audit;

/** Linux's view of a thread: the state letter of {@code /proc/PID/task/TID/stat}. */
final class OsThreadState {
    private OsThreadState() {}

    /**
     * The state ({@code R} running or runnable, {@code S} sleeping, {@code D} waiting for I/O, ...) from the text
     * of a {@code stat} file; the name before it is in parentheses and may itself hold spaces and parentheses.
     *
     * @throws IllegalArgumentException when the text is not a stat line
     */
    static char of(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.length()) throw new IllegalArgumentException("not a stat line: " + stat);
        return stat.charAt(close + 2);
    }
}
