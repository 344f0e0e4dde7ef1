package dev.blocklab.result;

/**
 * A run stopped before its end (Ctrl-C or SIGTERM): it stopped sending, waited a moment for what was in flight,
 * and counts only the requests that completed by then. Its figures describe that part of the run, so it is not
 * compared with the prediction of the whole.
 *
 * @param requestsSent    requests submitted before the stop
 * @param requestsPlanned requests the arrival pattern would have sent; 0 where it names no count (closed users)
 */
public record Interruption(long requestsSent, long requestsPlanned) {
    public Interruption {
        if (requestsSent < 0) throw new IllegalArgumentException("requests sent must be >= 0, got " + requestsSent);
        if (requestsPlanned < 0) throw new IllegalArgumentException("requests planned must be >= 0, got " + requestsPlanned);
    }

    /** {@code 345 of 1000 requests sent}, or {@code 345 requests sent} where none were planned. */
    public String sentText() {
        long count = requestsPlanned > 0 ? requestsPlanned : requestsSent;
        return requestsSent + (requestsPlanned > 0 ? " of " + requestsPlanned : "") + (count == 1 ? " request" : " requests") + " sent";
    }
}
