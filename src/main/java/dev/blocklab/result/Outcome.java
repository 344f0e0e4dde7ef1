package dev.blocklab.result;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** How one request ended. */
public sealed interface Outcome {
    record Success(Object value) implements Outcome {}
    /** The request failed; {@code cause} is the root failure, unwrapped from future wrappers. */
    record Failure(Throwable cause) implements Outcome {}
    /** A call's or the request's timeout fired first. */
    record Timeout(String detail) implements Outcome {}
    /** The request was cancelled before it finished. */
    record Cancelled() implements Outcome {}

    /** Classifies a completed future's value or failure. */
    static Outcome of(Object value, Throwable failure) {
        if (failure == null) return new Success(value);
        Throwable root = unwrap(failure);
        return switch (root) {
            case TimeoutException t -> new Timeout(String.valueOf(t.getMessage()));
            case CancellationException c -> new Cancelled();
            default -> new Failure(root);
        };
    }

    /** Strips CompletionException and ExecutionException wrappers, keeping the original failure. */
    static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        while ((cur instanceof CompletionException || cur instanceof ExecutionException) && cur.getCause() != null)
            cur = cur.getCause();
        return cur;
    }

    /** {@code Type: message}, the key under which failures are counted. */
    static String describe(Throwable t) {
        return t.getClass().getName() + ": " + t.getMessage();
    }
}
