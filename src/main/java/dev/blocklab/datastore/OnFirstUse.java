package dev.blocklab.datastore;

import java.util.function.Supplier;

/**
 * A client created on first use, at most once, and never after {@link #close}: the lazy start that every client
 * of a run shares (a connection pool is opened only when a call needs it).
 *
 * @param <T> the client
 */
final class OnFirstUse<T> {
    private final String closedMessage;
    private final Supplier<T> create;
    private volatile T value;
    private boolean closed;

    /** {@code create} runs under this object's lock; {@code closedMessage} is the error of a use after close. */
    OnFirstUse(String closedMessage, Supplier<T> create) {
        this.closedMessage = closedMessage;
        this.create = create;
    }

    /** The client, created now if this is its first use. */
    T get() {
        T v = value;
        if (v != null) return v;
        synchronized (this) {
            if (closed) throw new IllegalStateException(closedMessage);
            if (value == null) value = create.get();
            return value;
        }
    }

    /** Whether the client was created. */
    boolean created() { return value != null; }

    /** No client is created from now on; returns the one created (for the caller to close), or null. */
    synchronized T close() {
        closed = true;
        return value;
    }
}
