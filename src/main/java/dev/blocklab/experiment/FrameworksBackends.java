package dev.blocklab.experiment;

import dev.blocklab.backend.BackendServer;
import dev.blocklab.backend.BackendSettings;
import dev.blocklab.backend.HttpBackend;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Where the frameworks experiments' calls go ({@code --backend}): the simulated backend, or a real
 * {@link BackendServer} in this process on 127.0.0.1 serving the use case's four calls, with a fresh
 * {@link HttpBackend} per run. The server's routes depend only on the workload's call delays and values, not on
 * its arrival, so one server serves every run with the same delays.
 */
final class FrameworksBackends {
    private FrameworksBackends() {}

    /**
     * The server for this workload's calls when the settings ask for HTTP, started on a free port with one event
     * loop per core and its delays divided by {@code timeScale}, and warmed up; null for the simulated backend.
     * The caller closes it.
     *
     * @param ints  the CPU step's int list size, for the warm-up's invocations
     * @param longs the CPU step's long list size
     */
    static BackendServer startIfHttp(ExperimentSettings settings, Workload workload, long timeScale, int ints, int longs) {
        if (settings.backend() != ExperimentSettings.CallBackend.HTTP) return null;
        BackendServer server = BackendServer.start(new BackendSettings(BackendSettings.DEFAULT_HOST, 0,
                FrameworksUseCase.routes(workload), timeScale, Runtime.getRuntime().availableProcessors()));
        try {
            warmUp(server, workload, timeScale, new FrameworksUseCase(ints, longs), settings.progress());
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * A driver whose every run gets a fresh client (blocking sockets and a Vert.x client) to the server, or the
     * simulated backend when {@code server} is null.
     */
    static InProcessDriver driver(BackendServer server) {
        return server == null ? new InProcessDriver() : new InProcessDriver(() -> HttpBackend.routed(server.uri()));
    }

    /** The report's note on where the calls went. */
    static String note(ExperimentSettings settings) {
        return settings.backend() == ExperimentSettings.CallBackend.HTTP
                ? "Backend: HTTP. A backend server in this process on 127.0.0.1 serves the four lists as routes (/posts, /comments, /albums, /photos) with their delays; blocking calls use a blocking socket client (HTTP/1.1), non-blocking calls the Vert.x client (HTTP/2). Its event loops and the client's share the cores, so CPU ms/req and peak threads include both."
                : "Backend: simulated in process (timers, no sockets); --backend http calls a real server on 127.0.0.1 instead.";
    }

    /**
     * Sends a few dozen requests' calls through both forms of the HTTP client, so that the first variant measured
     * does not pay alone for the JIT of the sockets, Netty and Vert.x. Blocking calls run on virtual threads, so
     * this takes about one request's delays.
     */
    private static void warmUp(BackendServer server, Workload workload, long timeScale, FrameworksUseCase useCase, Progress progress) {
        progress.update("warming up the HTTP client");
        List<Integer> calls = List.of(FrameworksUseCase.POSTS, FrameworksUseCase.COMMENTS, FrameworksUseCase.ALBUMS, FrameworksUseCase.PHOTOS);
        try (HttpBackend backend = HttpBackend.routed(server.uri()); var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                var request = new Request(i, workload.graph(), 0, timeScale);
                for (int call : calls) {
                    done.add(backend.callAsync(useCase.invocation(request, call)));
                    done.add(threads.submit(() -> backend.callBlocking(useCase.invocation(request, call))));
                }
            }
            for (var f : done) f.get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            throw new IllegalStateException("warming up the HTTP backend at " + server.uri() + " failed: " + e.getMessage(), e);
        }
    }
}
