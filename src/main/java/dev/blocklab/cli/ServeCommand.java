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
import java.util.List;

/** {@code blocklab serve}: the HTTP server with the talk's endpoints, under a server profile. */
@Command(name = "serve", mixinStandardHelpOptions = true, defaultValueProvider = CommandDefaults.class,
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
                "  blocklab serve --profile virtual --backend-url http://127.0.0.1:9100",
                "  blocklab serve --profile virtual --workload examples/slow-query.yaml --backend postgres --db-pool 20",
                "  curl http://127.0.0.1:9000/run/slow-query/virtual",
                "  curl http://127.0.0.1:9000/run/mixed/cf-nonblocking:2",
                "  blocklab serve --profile event-loop --audit      # the audit's findings are printed on Ctrl-C",
                "  blocklab serve --profile threads:4 --request-timeout 500ms"})
final class ServeCommand extends ServerCommand implements picocli.CommandLine.IExitCodeGenerator {
    @Option(names = "--profile", defaultValue = "play-2.5", paramLabel = "PROFILE",
            description = "play-2.5, threads:N, virtual or event-loop (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--queue", paramLabel = "N",
            description = "Requests that may wait for a handler thread (virtual, event-loop: requests in flight); more are answered 503 (default: ${DEFAULT-VALUE}).")
    int queue;

    @Option(names = "--admission", defaultValue = "codel", paramLabel = "POLICY",
            description = "codel: also shed requests that waited too long in an overloaded queue (CoDel); fixed: only the --queue bound (default: ${DEFAULT-VALUE}).")
    String admission;

    @picocli.CommandLine.Mixin SharedOptions.TimeScale timeScale = new SharedOptions.TimeScale();

    @Option(names = "--backend-url", paramLabel = "URL", description = "Call a running 'blocklab backend' at URL over HTTP (--backend http) instead of the in-process simulated backend.")
    String backendUrl;

    @Option(names = "--workload", paramLabel = "FILE", description = "Also serve this YAML/JSON workload under /run/{its name}/{model}; repeatable.")
    java.util.List<java.nio.file.Path> workloads = java.util.List.of();

    @picocli.CommandLine.Mixin DatastoreOptions datastore = new DatastoreOptions.WithFormerDb();

    @picocli.CommandLine.Mixin SharedOptions.Seed seed = new SharedOptions.Seed();

    @Option(names = "--request-timeout", paramLabel = "D",
            description = "Answer 504 with the reason when a request is not answered this long after it arrived, and cancel its work (e.g. 500ms; default: none).")
    String requestTimeout;

    @picocli.CommandLine.Mixin AuditOptions audit = new AuditOptions();

    @picocli.CommandLine.Mixin SharedOptions.Console console = new SharedOptions.Console();

    /**
     * The budget of a stop, for everything the server owns: Vert.x closing the connections, the handler threads, the
     * models and the backend, all until one deadline once the backlog is cancelled. Closing 10,000 connections took
     * 1.9-5.3 s on 2 shared cores, and the process's exit closes them anyway. The PostgreSQL and Redis the lab
     * started and the audit's findings come after it, with bounds of their own (the stop's code says why).
     */
    static final java.time.Duration STOP_BUDGET = java.time.Duration.ofSeconds(1);

    /** 1 when a {@code --fail-if} condition held over the session's findings (after a stop), else 0. */
    @Override public int getExitCode() { return audit.exitCode(); }

    @Override public void run() {
        dev.blocklab.backend.Vertxes.init();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> kinds = datastore.kinds();
        String backend = backendUrl(kinds);
        ServerSettings configured = new ServerSettings(listen.host, listen.port, ServerProfile.parse(profile), queue, timeScale.timeScale,
                backend == null ? null : backendUri(backend), seed.seed, line -> { err.println(line); err.flush(); },
                Admission.parse(admission));
        ServerSettings settings = requestTimeout == null ? configured
                : configured.withRequestTimeoutNanos(Flags.duration("--request-timeout", requestTimeout));
        java.util.List<dev.blocklab.workload.Workload> served = workloads.stream().map(dev.blocklab.workload.WorkloadFile::load).toList();
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < served.size(); i++) {
            String name = served.get(i).name();
            if (!names.add(name))
                throw new IllegalArgumentException("--workload " + workloads.get(i) + ": another --workload file is also named '" + name + "'; rename one (its name: field)");
            var builtIn = dev.blocklab.workload.BuiltInWorkloads.named(name);
            if (builtIn.isPresent() && !builtIn.get().graph().equals(served.get(i).graph()) && !console.quiet)
                err.println("blocklab serve: --workload " + workloads.get(i) + " is named '" + name + "' like a built-in workload: /run/"
                        + name + "/{model} serves the file's; rename it (its name: field) to serve both");
        }
        // every mistake in the command first, then what this machine has (redis-server on the PATH): a mistake is
        // named the same on every machine
        dev.blocklab.datastore.DatastoreSettings real = datastore.serveSettings(kinds);
        if (real.postgres() || real.redis()) {
            // the real servers replace the backend of every endpoint: a --backend-url would be ignored without a word
            if (backend != null) throw new IllegalArgumentException("--backend-url and --backend postgres or redis (or --postgres-url, --redis-url) both name the backend: choose one");
            if (served.isEmpty()) throw new IllegalArgumentException("--backend postgres or redis serves the sql: and redis: steps of --workload files: add --workload FILE");
        }
        for (var w : served) dev.blocklab.datastore.Datastores.check(w.graph(), real);
        DatastoreOptions.installed(real);
        // started once the input is known to be good, and stopped if the server does not start: a JFR recording
        // and the watchdog thread must not outlive a command that failed (Main.execute runs in tests' JVMs too)
        dev.blocklab.audit.Auditor auditor = audit.start();
        dev.blocklab.datastore.Datastores servers = null;
        BlocklabServer server;
        try {
            servers = real.postgres() || real.redis()
                    ? dev.blocklab.datastore.Datastores.open(real, line -> { if (!console.quiet) { err.println(line); err.flush(); } }) : null;
            server = BlocklabServer.start(settings, servers == null ? null : servers.newBackend(), served);
        } catch (RuntimeException | Error e) {
            if (servers != null) servers.close();
            if (auditor != null) auditor.close();
            throw e;
        }
        dev.blocklab.datastore.Datastores startedServers = servers;
        Foreground foreground = new Foreground("blocklab-serve-shutdown", () -> {
            BlocklabServer.Stopped stopped = server.close(STOP_BUDGET);
            if (!stopped.complete() && !console.quiet) err.println(abandonedLine(stopped));
            for (Throwable failure : stopped.failures()) err.println("blocklab serve: a part failed to close: " + failure);
            err.flush();
            // Outside the budget, each with its own bound. The PostgreSQL and Redis the lab started run in a session
            // of their own and would outlive the lab, holding their port and data directory: they are stopped (10 s,
            // then killed) here, before a --fail-if exit code halts the JVM and cuts their own shutdown hooks short.
            // The audit's findings are what --audit asked for: JFR's stream is read to its end (3 s).
            if (startedServers != null) startedServers.close();
            if (auditor == null) return 0;
            // the findings of the whole session, attributed to 'serve PROFILE'; --fail-if decides the exit code
            dev.blocklab.audit.AuditResult audited = auditor.finish(java.time.Duration.ofSeconds(3));
            out.print(dev.blocklab.report.ReportFormat.TEXT.create(TextWidth.columns(false)).render(audited.asExperimentResult(dev.blocklab.result.Environment.current())));
            out.flush();
            return audit.exitCode(audited, err);
        });
        if (backend != null && !console.quiet) unreachable(backendUri(backend)).ifPresent(why -> {
            err.println("blocklab serve: the backend " + backend + " does not answer now (" + why + "); the talk's endpoints answer 502 until it does");
            err.flush();
        });
        announce(server.uri(), console.quiet, List.of("profile " + settings.profile().describe() + ", queue " + settings.queueCapacity()
                + ", admission " + settings.admission().label()
                + ", backend " + (startedServers != null ? startedServers.describe() : backend == null ? "simulated (in process)" : backend)
                + ", time scale 1/" + settings.timeScaleDivisor() + ", transport " + server.transport()));
        if (auditor == null) foreground.await();
        else auditor.during("serve " + settings.profile().name(), () -> { foreground.await(); return null; });
    }

    /** The one line saying what a stop abandoned when its budget ran out. */
    static String abandonedLine(BlocklabServer.Stopped stopped) {
        return "blocklab serve: the stop's " + stopped.budget().toMillis() + " ms ran out; abandoned "
                + Words.inWords(stopped.abandoned()) + " (their requests were cancelled; the exit ends them)";
    }

    /**
     * The running backend to call: {@code --backend-url}, or the URL the former {@code serve --backend URL} gave
     * (kept for a release); {@code --backend http} without one is an error. Removes {@code http} and URLs from
     * the kinds, which then name only real servers.
     */
    private String backendUrl(List<String> kinds) {
        String url = backendUrl;
        boolean http = false;
        for (String kind : kinds) {
            if (kind.trim().startsWith("http://")) url = url == null ? kind.trim() : url;
            else if (kind.trim().equals("http")) http = true;
        }
        kinds.removeIf(kind -> kind.trim().startsWith("http"));
        if (http && url == null) throw new IllegalArgumentException("--backend http needs --backend-url URL, the address of a running 'blocklab backend'");
        if (url != null && kinds.stream().anyMatch(kind -> kind.trim().equals("simulated")))
            throw new IllegalArgumentException("--backend simulated and --backend-url both name the backend: choose one (--backend-url calls it over HTTP)");
        return url;
    }

    /** Why nothing accepts a connection at {@code uri} now (one try, 1 s at most), or empty when something does. */
    static java.util.Optional<String> unreachable(URI uri) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(uri.getHost(), uri.getPort()), 1_000);
            return java.util.Optional.empty();
        } catch (java.io.IOException e) {
            return java.util.Optional.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    static URI backendUri(String text) {
        try {
            URI uri = new URI(text);
            if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) throw new URISyntaxException(text, "no host:port");
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--backend-url: '" + text + "' is not an http://HOST:PORT URL");
        }
    }
}
