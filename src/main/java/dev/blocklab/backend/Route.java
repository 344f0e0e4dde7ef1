package dev.blocklab.backend;

import dev.blocklab.workload.Durations;
import dev.blocklab.workload.Latency;

import java.util.Objects;

/**
 * How {@link BackendServer} answers one path: after a delay drawn from {@code delay} (divided by the server's
 * time scale) it answers {@code status} with {@code body}, or, with probability {@code failureRate},
 * {@code failureStatus} with a short error text.
 *
 * @param path          the exact request path, starting with {@code /}
 * @param delay         the configured delay distribution, before the time scale
 * @param status        the status of a successful answer
 * @param failureRate   chance in [0, 1] that an answer fails
 * @param failureStatus the status of a failed answer
 * @param body          the body of a successful answer: this text, or, when null, {@code bodyBytes} filler bytes
 * @param bodyBytes     the size of the filler body in bytes when {@code body} is null
 */
public record Route(String path, Latency delay, int status, double failureRate, int failureStatus, String body,
                    int bodyBytes) {
    public Route {
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) throw new IllegalArgumentException("route path must start with '/', got '" + path + "'");
        Objects.requireNonNull(delay, "delay");
        checkStatus(status);
        checkStatus(failureStatus);
        if (!(failureRate >= 0 && failureRate <= 1))
            throw new IllegalArgumentException("route " + path + ": failure-rate must be in [0, 1], got " + failureRate);
        if (bodyBytes < 0 || bodyBytes > 16 * 1024 * 1024)
            throw new IllegalArgumentException("route " + path + ": bytes must be in [0, 16 MiB], got " + bodyBytes);
    }

    /** A route that always answers 200 with {@code body} after a fixed delay. */
    public static Route fixed(String path, long delayNanos, String body) {
        return new Route(path, new Latency.Fixed(delayNanos), 200, 0, 500, body, 0);
    }

    /** One line in the syntax {@link Routes#parse} reads. */
    public String describe() {
        return path + " delay=" + delayText() + " status=" + status
                + (failureRate > 0 ? " failure-rate=" + failureRate + " failure-status=" + failureStatus : "")
                + (body != null ? " body=" + body : " bytes=" + bodyBytes);
    }

    private String delayText() {
        return switch (delay) {
            case Latency.Fixed f -> Durations.format(f.nanos());
            case Latency.Uniform u -> "uniform(" + Durations.format(u.minNanos()) + "," + Durations.format(u.maxNanos()) + ")";
            case Latency.LogNormal l -> "lognormal(" + Durations.format(l.p50Nanos()) + "," + Durations.format(l.p99Nanos()) + ")";
        };
    }

    private static void checkStatus(int status) {
        if (status < 100 || status > 599) throw new IllegalArgumentException("HTTP status must be in 100..599, got " + status);
    }
}
