package dev.blocklab.server;

import java.net.URI;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link BlocklabServer} is set up; {@code blocklab serve}'s flags map one to one.
 *
 * @param host             the address to bind ({@code 127.0.0.1} by default)
 * @param port             the port; 0 picks a free one
 * @param profile          where handlers run
 * @param queueCapacity    for queueing profiles, requests that may wait for a handler thread; for
 *                         {@code virtual} and {@code event-loop}, requests that may be in flight. One more is
 *                         answered 503 at once.
 * @param timeScaleDivisor every backend delay is divided by this (1: real time)
 * @param backend          a running {@code blocklab backend} to call over HTTP, or null for the in-process
 *                         simulated backend
 * @param seed             seed of every latency and failure draw of {@code /run}
 * @param log              where operational lines go (one line each), e.g. standard error
 * @param admission        how a queueing profile refuses queued requests besides the fixed bound
 * @param requestTimeoutNanos a request not answered this long after it arrived is answered 504 with the reason,
 *                         and its work is cancelled (0: no deadline); real time, not divided by the time scale
 */
public record ServerSettings(String host, int port, ServerProfile profile, int queueCapacity, long timeScaleDivisor,
                             URI backend, long seed, Consumer<String> log, Admission admission, long requestTimeoutNanos) {
    public static final String DEFAULT_HOST = dev.blocklab.Defaults.HOST;
    public static final int DEFAULT_PORT = dev.blocklab.Defaults.SERVE_PORT;
    public static final int DEFAULT_QUEUE = dev.blocklab.Defaults.SERVE_QUEUE;

    public ServerSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) throw new IllegalArgumentException("--port must be in 0..65535, got " + port);
        Objects.requireNonNull(profile, "profile");
        if (queueCapacity < 1) throw new IllegalArgumentException("--queue must be at least 1, got " + queueCapacity);
        dev.blocklab.workload.Durations.checkTimeScale(timeScaleDivisor);
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(admission, "admission");
        if (requestTimeoutNanos < 0) throw new IllegalArgumentException("--request-timeout must be positive");
    }

    /** The settings without a request deadline. */
    public ServerSettings(String host, int port, ServerProfile profile, int queueCapacity, long timeScaleDivisor,
                          URI backend, long seed, Consumer<String> log, Admission admission) {
        this(host, port, profile, queueCapacity, timeScaleDivisor, backend, seed, log, admission, 0);
    }

    /** The settings with the default admission ({@link Admission#CODEL}). */
    public ServerSettings(String host, int port, ServerProfile profile, int queueCapacity, long timeScaleDivisor,
                          URI backend, long seed, Consumer<String> log) {
        this(host, port, profile, queueCapacity, timeScaleDivisor, backend, seed, log, Admission.CODEL);
    }

    /** 127.0.0.1, the given port and profile, the default queue, real time, the simulated backend, logs to stderr. */
    public static ServerSettings of(int port, ServerProfile profile) {
        return new ServerSettings(DEFAULT_HOST, port, profile, DEFAULT_QUEUE, dev.blocklab.Defaults.TIME_SCALE, null, dev.blocklab.Defaults.SEED, System.err::println);
    }

    public ServerSettings withQueue(int capacity) {
        return new ServerSettings(host, port, profile, capacity, timeScaleDivisor, backend, seed, log, admission, requestTimeoutNanos);
    }

    public ServerSettings withTimeScale(long divisor) {
        return new ServerSettings(host, port, profile, queueCapacity, divisor, backend, seed, log, admission, requestTimeoutNanos);
    }

    public ServerSettings withBackend(URI uri) {
        return new ServerSettings(host, port, profile, queueCapacity, timeScaleDivisor, uri, seed, log, admission, requestTimeoutNanos);
    }

    public ServerSettings withLog(Consumer<String> sink) {
        return new ServerSettings(host, port, profile, queueCapacity, timeScaleDivisor, backend, seed, sink, admission, requestTimeoutNanos);
    }

    public ServerSettings withRequestTimeoutNanos(long nanos) {
        return new ServerSettings(host, port, profile, queueCapacity, timeScaleDivisor, backend, seed, log, admission, nanos);
    }

    public ServerSettings withAdmission(Admission policy) {
        return new ServerSettings(host, port, profile, queueCapacity, timeScaleDivisor, backend, seed, log, policy, requestTimeoutNanos);
    }
}
