package dev.blocklab.cli;

import dev.blocklab.server.Admission;
import dev.blocklab.server.BlocklabServer;
import dev.blocklab.server.ServerProfile;
import dev.blocklab.server.ServerSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.CountDownLatch;

/** {@code blocklab serve}: the HTTP server with the talk's endpoints, under a server profile. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve the talk's endpoints (/sync-blocking, /async-blocking, /async-non-blocking), any workload "
                + "under any model (/run/{workload}/{model}), /health and /metrics (Prometheus text) over HTTP on Vert.x.",
                "Prints 'listening on http://HOST:PORT' once ready; runs until interrupted (Ctrl-C)."},
        footer = {"", "Profiles:",
                "  play-2.5     Play 2.5's ForkJoinPool: clamp(cores, 8, 24) threads, LIFO",
                "  threads:N    a servlet-style pool of N platform threads",
                "  virtual      a virtual thread per request",
                "  event-loop   handlers on the I/O threads; blocking there is flagged",
                "", "Examples:",
                "  blocklab serve --profile play-2.5",
                "  blocklab serve --profile threads:1000 --port 0",
                "  blocklab serve --profile threads:8 --admission fixed --queue 16",
                "  blocklab serve --profile event-loop --time-scale 10",
                "  blocklab serve --profile virtual --backend http://127.0.0.1:9100",
                "  blocklab serve --profile virtual --workload examples/slow-query.yaml --db postgres --db-pool 20",
                "  curl http://127.0.0.1:9000/run/slow-query/virtual",
                "  curl http://127.0.0.1:9000/run/mixed/cf-nonblocking:2",
                "  blocklab serve --profile event-loop --audit      # the audit's findings are printed on Ctrl-C"})
final class ServeCommand implements Runnable {
    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--host", defaultValue = ServerSettings.DEFAULT_HOST, description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "" + ServerSettings.DEFAULT_PORT, description = "Port to bind; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--profile", defaultValue = "play-2.5", paramLabel = "PROFILE",
            description = "play-2.5, threads:N, virtual or event-loop (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--queue", defaultValue = "" + ServerSettings.DEFAULT_QUEUE, paramLabel = "N",
            description = "Requests that may wait for a handler thread (virtual, event-loop: requests in flight); more are answered 503 (default: ${DEFAULT-VALUE}).")
    int queue;

    @Option(names = "--admission", defaultValue = "codel", paramLabel = "POLICY",
            description = "codel: also shed requests that waited too long in an overloaded queue (CoDel); fixed: only the --queue bound (default: ${DEFAULT-VALUE}).")
    String admission;

    @Option(names = "--time-scale", defaultValue = "1", paramLabel = "N", description = "Divide every backend delay by N (default: ${DEFAULT-VALUE}).")
    long timeScale;

    @Option(names = "--backend", paramLabel = "URL", description = "Call a running 'blocklab backend' over HTTP instead of the in-process simulated backend.")
    String backend;

    @Option(names = "--workload", paramLabel = "FILE", description = "Also serve this YAML/JSON workload under /run/{its name}/{model}; repeatable.")
    java.util.List<java.nio.file.Path> workloads = java.util.List.of();

    @picocli.CommandLine.Mixin ServeDatastoreOptions datastore = new ServeDatastoreOptions();

    @Option(names = "--seed", defaultValue = "42", description = "Seed of every latency and failure draw (default: ${DEFAULT-VALUE}).")
    long seed;

    @picocli.CommandLine.Mixin AuditOptions audit = new AuditOptions();

    @Option(names = "--quiet", description = "Print only the 'listening on URL' line: no profile summary, no database start-up lines.")
    boolean quiet;

    @Option(names = "--verbose", description = "Stack traces for errors.")
    boolean verbose;

    @Override public void run() {
        dev.blocklab.backend.Vertxes.init();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ServerSettings settings = new ServerSettings(host, port, ServerProfile.parse(profile), queue, timeScale,
                backend == null ? null : backendUri(backend), seed, line -> { err.println(line); err.flush(); },
                Admission.parse(admission));
        java.util.List<dev.blocklab.workload.Workload> served = workloads.stream().map(dev.blocklab.workload.WorkloadFile::load).toList();
        dev.blocklab.datastore.DatastoreSettings real = datastore.settings();
        for (var w : served) dev.blocklab.datastore.Datastores.check(w.graph(), real);
        if (real.postgres() || real.redis()) {
            // the real servers replace the backend of every endpoint: a --backend URL would be ignored without a word
            if (backend != null) throw new IllegalArgumentException("--backend URL and --db (or --postgres-url, --redis-url) both name the backend: choose one");
            if (served.isEmpty()) throw new IllegalArgumentException("--db serves the sql: and redis: steps of --workload files: add --workload FILE");
        }
        // started once the input is known to be good, and stopped if the server does not start: a JFR recording
        // and the watchdog thread must not outlive a command that failed (Main.execute runs in tests' JVMs too)
        dev.blocklab.audit.Auditor auditor = audit.start();
        dev.blocklab.datastore.Datastores servers = null;
        BlocklabServer server;
        try {
            servers = real.postgres() || real.redis()
                    ? dev.blocklab.datastore.Datastores.open(real, line -> { if (!quiet) { err.println(line); err.flush(); } }) : null;
            server = BlocklabServer.start(settings, servers == null ? null : servers.newBackend(), served);
        } catch (RuntimeException | Error e) {
            if (servers != null) servers.close();
            if (auditor != null) auditor.close();
            throw e;
        }
        dev.blocklab.datastore.Datastores startedServers = servers;
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            server.close();
            if (startedServers != null) startedServers.close();
            if (auditor != null) {   // the findings of the whole session, attributed to 'serve PROFILE'
                out.print(dev.blocklab.report.ReportFormat.TEXT.create(TextWidth.columns(false)).render(auditor.finish(java.time.Duration.ofSeconds(3)).asExperimentResult(dev.blocklab.result.Environment.current())));
                out.flush();
            }
            stopped.countDown();
        }, "blocklab-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("listening on " + server.uri());
        if (!quiet) out.println("profile " + settings.profile().describe() + ", queue " + settings.queueCapacity()
                + ", admission " + settings.admission().label()
                + ", backend " + (startedServers != null ? startedServers.describe() : backend == null ? "simulated (in process)" : backend)
                + ", time scale 1/" + settings.timeScaleDivisor());
        out.flush();
        try {
            if (auditor == null) stopped.await();
            else auditor.during("serve " + settings.profile().name(), () -> { stopped.await(); return null; });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
        }
    }

    static URI backendUri(String text) {
        try {
            URI uri = new URI(text);
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) throw new URISyntaxException(text, "no host:port");
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--backend: '" + text + "' is not an http://HOST:PORT URL");
        }
    }
}
