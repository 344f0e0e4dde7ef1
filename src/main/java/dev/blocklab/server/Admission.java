package dev.blocklab.server;

import java.util.Locale;

/** How a queueing profile decides which queued requests to refuse ({@code serve --admission}). */
public enum Admission {
    /**
     * Shed by measured queueing delay ({@link QueueDelayShedder}, CoDel as applied to server queues), within the
     * fixed bound: the default.
     */
    CODEL,
    /** Only the fixed bound ({@code --queue}): a request is refused only when the queue is full. */
    FIXED;

    /**
     * Parses {@code codel} or {@code fixed}.
     *
     * @throws IllegalArgumentException one line naming {@code --admission} and the accepted values
     */
    public static Admission parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "codel" -> CODEL;
            case "fixed" -> FIXED;
            default -> throw new IllegalArgumentException("--admission: unknown policy '" + text + "'"
                    + dev.blocklab.Names.didYouMean(text.trim(), java.util.List.of("codel", "fixed")) + " (known: codel, fixed)");
        };
    }

    public String label() { return name().toLowerCase(Locale.ROOT); }
}
