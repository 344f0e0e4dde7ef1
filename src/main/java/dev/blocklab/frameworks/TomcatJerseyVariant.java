package dev.blocklab.frameworks;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.model.Tasks;
import dev.blocklab.result.Outcome;
import dev.blocklab.workload.Request;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardThreadExecutor;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.modeler.Registry;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * A frameworks variant on the article's own stack: an embedded Tomcat 11 (one HTTP/1.1 connector on 127.0.0.1, an
 * executor of at most 200 request threads with 10 kept, Tomcat's defaults) running Jersey 3's servlet with
 * {@link UseCaseResource}; each request goes to it over a real socket with the JDK's HTTP client (HTTP/1.1) and
 * its answer is the response body. The resource runs the same code as the in-process variant of that name, so
 * the two differ only by the container, the HTTP hop and the real request pool.
 *
 * <p>One server per instance (per run): started, warmed with a few hundred requests to {@code /ping}, and stopped
 * with all its threads on {@link #close}. A failed request answers 500 with the root cause's type and message,
 * from which the returned future's failure is rebuilt ({@link #failure}).
 */
final class TomcatJerseyVariant implements Model {
    /**
     * Tomcat's INFO lines (startup, shutdown) and Jersey's warnings about optional modules it does not find
     * (JAXB, activation) stay out of the reports; kept so the levels hold.
     */
    private static final List<Logger> QUIET = Stream.of("org.apache", "org.glassfish").map(Logger::getLogger).toList();
    static final String PREFIX = "jaxrs-";
    static final int REQUEST_THREADS = 200;
    static {
        QUIET.forEach(l -> l.setLevel(Level.SEVERE));
        Registry.disableRegistry(); // no JMX beans: servers come and go once per run
    }

    private final String resource;
    private final int poolSize;
    private final Function<Demand, Prediction> prediction;
    private final boolean failsFast;
    private final ExecutorService io;
    private final Map<Long, Request> pending = new ConcurrentHashMap<>();
    private final Path baseDir;
    private final Tomcat tomcat;
    private final HttpClient client;
    private final URI base;

    /**
     * @param resource   the resource's path: {@code sequential}, {@code invokeall}, {@code supplyasync} or {@code cf-suspended}
     * @param poolSize   the I/O pool's threads (0 for {@code sequential}, which has none)
     * @param prediction {@link #formula} of the in-process variant's own for this pool size
     * @param failsFast  the in-process variant's {@link Model#failsFast}: the resource runs its code
     */
    TomcatJerseyVariant(Backend backend, FrameworksUseCase useCase, String resource, int poolSize,
                        Function<Demand, Prediction> prediction, boolean failsFast) {
        this.resource = resource;
        this.poolSize = poolSize;
        this.prediction = prediction;
        this.failsFast = failsFast;
        this.io = poolSize > 0 ? RequestThreads.fixed("io", poolSize) : null;
        try {
            baseDir = Files.createTempDirectory("blocklab-tomcat");
            tomcat = start(new UseCaseResource(backend, useCase, io, pending), baseDir);
            base = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/");
            client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            warmUp();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("could not start Tomcat: " + e.getMessage(), e);
        } catch (LifecycleException | RuntimeException e) {
            close();
            throw new IllegalStateException("could not start Tomcat with Jersey: " + e.getMessage(), e);
        }
    }

    private static Tomcat start(UseCaseResource resource, Path baseDir) throws LifecycleException {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        StandardThreadExecutor requestThreads = new StandardThreadExecutor();
        requestThreads.setName("request-threads");
        requestThreads.setNamePrefix(RequestThreads.PREFIX + "tomcat-");
        requestThreads.setMaxThreads(REQUEST_THREADS);
        requestThreads.setMinSpareThreads(RequestThreads.MIN_SPARE);
        tomcat.getService().addExecutor(requestThreads);
        Connector connector = new Connector("HTTP/1.1");
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.getProtocolHandler().setExecutor(requestThreads);
        tomcat.setConnector(connector);
        var context = (org.apache.catalina.core.StandardContext) tomcat.addContext("", baseDir.toString());
        // no web application is redeployed here, so Tomcat's leak detection (which needs --add-opens) has nothing to find
        context.setClearReferencesThreadLocals(false);
        context.setClearReferencesRmiTargets(false);
        ResourceConfig jaxrs = new ResourceConfig().register(resource).register(new RootCauseMapper());
        Wrapper servlet = Tomcat.addServlet(context, "jersey", new ServletContainer(jaxrs));
        servlet.setAsyncSupported(true);
        context.addServletMappingDecoded("/*", "jersey");
        tomcat.start();
        return tomcat;
    }

    /** So that the first measured requests do not pay alone for the JIT of Tomcat, Jersey and the client. */
    private void warmUp() {
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int round = 0; round < 6; round++) {
            sent.clear();
            for (int i = 0; i < 50; i++)
                sent.add(client.sendAsync(HttpRequest.newBuilder(base.resolve("ping")).build(), HttpResponse.BodyHandlers.ofString()));
            for (var f : sent) {
                HttpResponse<String> r = f.orTimeout(30, TimeUnit.SECONDS).join();
                if (r.statusCode() != 200) throw new IllegalStateException("GET /ping answered " + r.statusCode());
            }
        }
    }

    @Override public String name() { return PREFIX + resource + (poolSize > 0 ? ":" + poolSize : ""); }

    @Override public CompletableFuture<Object> submit(Request request) {
        pending.put(request.id(), request);
        URI uri = base.resolve(resource + "/" + request.id());
        CompletableFuture<HttpResponse<String>> sent =
                client.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        CompletableFuture<Object> answer = new CompletableFuture<>();
        sent.whenComplete((r, e) -> {
            if (e != null) answer.completeExceptionally(e);
            else if (r.statusCode() == 200) answer.complete(r.body());
            else answer.completeExceptionally(failure(r.statusCode(), uri, r.body()));
        });
        answer.whenComplete((v, e) -> {
            if (e != null) {
                sent.cancel(true);
                pending.remove(request.id());
            }
        });
        return answer;
    }

    /** As the in-process variant whose code the resource runs. */
    @Override public boolean failsFast() { return failsFast; }

    @Override public Prediction predict(Demand d) { return prediction.apply(d); }

    /**
     * The prediction of the resource that runs the in-process variant {@code resource}'s code: that variant's own
     * ({@code inProcess}), its figures whole (time, path, {@link Prediction#requeues}), in words that say so.
     */
    static Prediction formula(String resource, Prediction inProcess) {
        return inProcess.withBasis(inProcess.basis() + "; as the in-process " + resource + ", plus an HTTP round trip");
    }

    @Override public void close() {
        if (client != null) client.close();
        if (io != null) Tasks.shutdown(io); // before Tomcat, which would report its threads as the web application's leak
        if (tomcat == null) return;
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException("could not stop Tomcat: " + e.getMessage(), e);
        } finally {
            deleteQuietly(baseDir);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) return;
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }

    /**
     * The failure a non-200 answer stands for: a 500 from {@link RootCauseMapper} ({@code type: message}) rebuilt as
     * that exception, so a request ends with the same cause as in process (docs/workloads.md, "Failures"); any
     * other answer, or a type that cannot be rebuilt, as an {@link IOException} naming the status and the body.
     */
    static Exception failure(int status, URI uri, String body) {
        int colon = body.indexOf(": ");
        if (status == 500 && colon > 0) {
            try {
                Class<?> type = Class.forName(body.substring(0, colon), false, TomcatJerseyVariant.class.getClassLoader());
                if (Exception.class.isAssignableFrom(type))
                    return (Exception) type.getConstructor(String.class).newInstance(body.substring(colon + 2));
            } catch (ReflectiveOperationException | LinkageError ignored) {
                // not one of ours: reported as it came
            }
        }
        return new IOException("HTTP " + status + " from GET " + uri + ": " + body);
    }

    /** A failed request answers 500 with its root cause's type and message; JAX-RS's own errors keep their status. */
    static final class RootCauseMapper implements ExceptionMapper<Throwable> {
        @Override public Response toResponse(Throwable failure) {
            if (failure instanceof WebApplicationException web) return web.getResponse();
            Throwable root = Outcome.unwrap(failure);
            return Response.serverError().type(MediaType.TEXT_PLAIN_TYPE)
                    .entity(root.getClass().getName() + ": " + root.getMessage()).build();
        }
    }
}
