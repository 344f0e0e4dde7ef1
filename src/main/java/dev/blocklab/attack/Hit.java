package dev.blocklab.attack;

/**
 * One response (or error), as it arrives. Times are nanoseconds after the attack's start (one
 * {@code System.nanoTime} origin).
 *
 * @param index         0-based request number in schedule order
 * @param target        index into {@link AttackSettings#targets()}
 * @param intendedNanos when the schedule wanted it sent (for closed users: when it was sent)
 * @param sentNanos     when it was sent: by the event loop pacing it, or handed to the client by the send loop
 * @param latencyNanos  response complete minus intended send time
 * @param serviceNanos  response complete minus the time it left on a connection (its send, when the client cannot tell)
 * @param status        HTTP status, 0 when no response arrived
 * @param bytesIn       response body bytes
 * @param bytesOut      request body bytes
 * @param error         null on success; otherwise vegeta-style text such as {@code Get http://…: connection refused}
 */
public record Hit(long index, int target, long intendedNanos, long sentNanos, long latencyNanos, long serviceNanos,
                  int status, long bytesIn, long bytesOut, String error) {

    /** vegeta's definition: a status in [200, 400). */
    public boolean success() { return status >= 200 && status < 400; }
}
