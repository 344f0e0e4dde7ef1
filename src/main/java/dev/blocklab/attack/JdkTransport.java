package dev.blocklab.attack;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's {@code java.net.http} client over HTTP/1.1. It has no bound on connections, so this class bounds
 * requests in flight to {@code maxConnections} with a semaphore and queues the rest (HTTP/1.1 without
 * pipelining uses one connection per request in flight). The timeout covers connect and response headers
 * (the JDK's {@code HttpRequest.timeout}); time queued here is not covered.
 */
final class JdkTransport implements Transport {
    private final HttpClient client;
    private final ExecutorService executor;
    private final Duration timeout;
    private final Semaphore permits;
    private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final Map<Target, HttpRequest> requests = new ConcurrentHashMap<>();

    JdkTransport(long timeoutNanos, int maxConnections) {
        this.timeout = Duration.ofNanos(timeoutNanos);
        this.permits = new Semaphore(maxConnections);
        this.executor = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()),
                Thread.ofPlatform().daemon().name("attack-jdk-", 0).factory());
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
                .connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    private HttpRequest build(Target t) {
        HttpRequest.Builder b = HttpRequest.newBuilder(t.url()).timeout(timeout)
                .method(t.method(), t.bodyLength() == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(t.bodyUnsafe()));
        for (var h : t.headers()) b.header(h.getKey(), h.getValue());
        return b.build();
    }

    @Override public void send(Target target, Completion completion) {
        HttpRequest request = requests.computeIfAbsent(target, this::build);
        String label = target.label();
        long queued = System.nanoTime();
        waiting.add(() -> {
            long wire = System.nanoTime();
            client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((resp, error) -> {
            permits.release();
            drain();
            if (error == null) completion.complete(wire, wire - queued, resp.statusCode(), resp.body().length, null);
            else if (error.getCause() instanceof HttpTimeoutException || error instanceof HttpTimeoutException)
                completion.complete(wire, wire - queued, 0, 0, label + ": timeout after " + timeout.toMillis() + "ms");
            else completion.complete(wire, wire - queued, 0, 0, label + ": " + Transport.describe(error));
            });
        });
        drain();
    }

    private void drain() {
        while (!waiting.isEmpty() && permits.tryAcquire()) {
            Runnable next = waiting.poll();
            if (next == null) permits.release();
            else next.run();
        }
    }

    @Override public void close() {
        client.shutdownNow();
        executor.shutdownNow();
        try {
            client.awaitTermination(Duration.ofSeconds(2));
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
