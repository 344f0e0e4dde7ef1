package dev.blocklab.server;

import java.time.Duration;
import java.util.Locale;

/**
 * A benchmark, not a test: the talk's attacks (seed 001) against this server, with the test-only open-loop
 * sender, in real time unless a time scale is given. Each attack runs on a fresh server after a warm-up.
 *
 * <pre>
 * java --enable-preview -cp target/test-classes:target/blocklab.jar dev.blocklab.server.TalkTableBenchmark [timeScale=1]
 * java ... dev.blocklab.server.TalkTableBenchmark 1 http://127.0.0.1:PORT   # calls a running blocklab backend
 * </pre>
 */
public final class TalkTableBenchmark {
    private TalkTableBenchmark() {}

    record Attack(String profile, String path, double ratePerSecond, int count, String talk) {}

    public static void main(String[] args) {
        long scale = args.length > 0 ? Long.parseLong(args[0]) : 1;
        java.net.URI backend = args.length > 1 ? java.net.URI.create(args[1]) : null;
        Duration timeout = Duration.ofMillis(3_000 / scale);
        Attack[] attacks = backend != null ? new Attack[]{
                new Attack("virtual", "/async-non-blocking", 300.0 * scale, 3_000, "-"),
                new Attack("virtual", "/sync-blocking", 300.0 * scale, 3_000, "-"),
        } : new Attack[]{
                new Attack("play-2.5", "/sync-blocking", 10.0 * scale, 100, "65 %"),
                new Attack("play-2.5", "/async-blocking", 10.0 * scale, 100, "11 %"),
                new Attack("play-2.5", "/async-non-blocking", 10.0 * scale, 100, "100 %"),
                new Attack("play-2.5", "/async-non-blocking", 1000.0 * scale, 10_000, "100 %"),
                new Attack("threads:1000", "/sync-blocking", 1000.0 * scale, 10_000, "99.97 %"),
        };
        System.out.printf(Locale.ROOT, "time scale 1/%d, timeout %d ms, %d cores, backend %s%n", scale, timeout.toMillis(),
                Runtime.getRuntime().availableProcessors(), backend == null ? "simulated" : backend);
        for (Attack a : attacks) {
            ServerSettings settings = ServerSettings.of(0, ServerProfile.parse(a.profile())).withTimeScale(scale).withLog(l -> {});
            if (backend != null) settings = settings.withBackend(backend);
            try (BlocklabServer server = BlocklabServer.start(settings)) {
                OpenLoopSender.warmUp(server.uri().resolve("/health"));
                OpenLoopSender.Result r = OpenLoopSender.send(server.uri().resolve(a.path()), a.ratePerSecond(), a.count(), timeout);
                System.out.printf(Locale.ROOT, "%-13s %-20s %6.0f/s x %5d: success %6.2f %% (talk %s), p50 %7.1f ms, p99 %7.1f ms from intended send, statuses %s%n",
                        a.profile(), a.path(), a.ratePerSecond(), a.count(), 100 * r.successRatio(), a.talk(),
                        r.p50Micros() / 1e3, r.p99Micros() / 1e3, r.statuses());
            }
        }
    }
}
