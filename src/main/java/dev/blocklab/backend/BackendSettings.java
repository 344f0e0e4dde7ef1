package dev.blocklab.backend;

import java.util.List;
import java.util.Objects;

/**
 * How a {@link BackendServer} is set up.
 *
 * @param host             the address to bind, {@code 127.0.0.1} by default
 * @param port             the port to bind; 0 picks a free one
 * @param routes           the configured paths; {@code /call}, {@code /stats} and {@code /health} are always served
 * @param timeScaleDivisor every configured route delay is divided by this (1: real time); {@code /call} delays
 *                         come already scaled from the caller and are not divided again
 * @param eventLoops       Vert.x event-loop threads that accept connections and fire the delay timers
 */
public record BackendSettings(String host, int port, List<Route> routes, long timeScaleDivisor, int eventLoops) {
    public static final String DEFAULT_HOST = dev.blocklab.Defaults.HOST;

    public BackendSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) throw new IllegalArgumentException("--port must be in 0..65535, got " + port);
        routes = List.copyOf(routes);
        for (Route r : routes)
            if (r.path().equals("/call") || r.path().equals("/stats") || r.path().equals("/health"))
                throw new IllegalArgumentException("route " + r.path() + " is reserved (/call, /stats, /health)");
        dev.blocklab.workload.Durations.checkTimeScale(timeScaleDivisor);
        if (eventLoops < 1) throw new IllegalArgumentException("--event-loops must be at least 1, got " + eventLoops);
    }

    /** 127.0.0.1 on {@code port}, the talk's three routes, real time, one event loop per core. */
    public static BackendSettings defaults(int port) {
        return new BackendSettings(DEFAULT_HOST, port, Routes.profilePage(), 1, Runtime.getRuntime().availableProcessors());
    }
}
