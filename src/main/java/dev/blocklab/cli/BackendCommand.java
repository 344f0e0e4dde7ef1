package dev.blocklab.cli;

import dev.blocklab.backend.BackendServer;
import dev.blocklab.backend.BackendSettings;
import dev.blocklab.backend.Route;
import dev.blocklab.backend.Routes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code blocklab backend}: the latency-simulating downstream service. */
@Command(name = "backend", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
        description = {"Run a latency-simulating HTTP service for downstream calls: each path answers after a delay "
                + "(fixed, uniform or log-normal), with a status, failure rate and body size. Timer-driven: a pending "
                + "answer holds no thread.",
                "Paths: the talk's /user (200 ms), /posts (500 ms), /followers (300 ms) unless replaced; "
                + "/call?delayMicros=D&status=S&bytes=B&value=V (the caller decides; used by 'serve --backend'); "
                + "/stats (delivered delays, HdrHistogram percentiles, beside the configured ones); /health.",
                "Prints 'listening on http://HOST:PORT' once ready; runs until interrupted (Ctrl-C)."},
        footer = {"", "Route syntax (one per --route, or per line of a --routes file, # comments):",
                "  PATH delay=200ms|uniform(10ms,50ms)|lognormal(P50,P99) [status=200]",
                "       [failure-rate=0.01] [failure-status=500] [body=TEXT | bytes=N]",
                "", "Examples:",
                "  blocklab backend --port 9100",
                "  blocklab backend --route '/orders delay=lognormal(40ms,250ms) bytes=2048'",
                "  blocklab backend --routes routes.txt --time-scale 10",
                "  curl 'http://127.0.0.1:9100/call?delayMicros=250000&value=hello'",
                "  curl http://127.0.0.1:9100/stats"})
final class BackendCommand extends ServerCommand {
    @Option(names = "--route", paramLabel = "ROUTE", description = "A path and its behaviour, e.g. '/orders delay=lognormal(40ms,250ms) bytes=2048'; repeatable.")
    List<String> routes = new ArrayList<>();

    @Option(names = "--routes", paramLabel = "FILE", description = "A file of routes, one per line.")
    Path routesFile;

    @picocli.CommandLine.Mixin SharedOptions.TimeScale timeScale = new SharedOptions.TimeScale();

    @picocli.CommandLine.Mixin SharedOptions.Console console = new SharedOptions.Console();

    @Option(names = "--event-loops", paramLabel = "N", description = "Event-loop threads (default: one per core).")
    Integer eventLoops;

    @Override public void run() {
        dev.blocklab.backend.Vertxes.init();
        // a --route may replace a path of the --routes file; a path twice in the file, or in two --route, is refused
        List<Route> flags = new ArrayList<>();
        List<String> wheres = new ArrayList<>();
        for (String r : routes) {
            flags.add(Routes.parse(r, "--route"));
            wheres.add("--route '" + r.trim() + "'");
        }
        Routes.distinct(flags, wheres);
        List<Route> configured = Routes.merge(routesFile != null ? Routes.load(routesFile) : List.of(), flags);
        BackendSettings settings = new BackendSettings(listen.host, listen.port, Routes.merge(Routes.profilePage(), configured), timeScale.timeScale,
                eventLoops == null ? Runtime.getRuntime().availableProcessors() : eventLoops);
        BackendServer backend = BackendServer.start(settings);
        Foreground foreground = new Foreground("blocklab-backend-shutdown", backend::close);
        List<String> details = new ArrayList<>();
        for (Route r : settings.routes()) details.add("  " + r.describe());
        details.add("  /call?delayMicros=D&status=S&bytes=B&value=V   /stats   /health   (time scale 1/" + settings.timeScaleDivisor() + ")");
        announce(backend.uri(), console.quiet, details);
        foreground.await();
    }
}
