package dev.blocklab.server;

import dev.blocklab.backend.Vertxes;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.SendLoop;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * A minimal open-loop sender for tests: sends {@code count} GETs at a constant rate whatever the answers, paced by
 * the lab's {@link SendLoop}, each with a timeout, over a Vert.x client with up to 1000 keep-alive connections, and
 * counts the statuses (0: timed out or failed); or, {@link #oneAtATime}, one request after another. Bounded in count
 * and in time. Not the lab's load generator.
 */
final class OpenLoopSender {
    /** Statuses seen, by code (0 counts timeouts and connection errors); latencies from the intended send time. */
    record Result(Map<Integer, Long> statuses, int sent, long p50Micros, long p99Micros) {
        long count(int status) { return statuses.getOrDefault(status, 0L); }
        double successRatio() { return sent == 0 ? 0 : (double) count(200) / sent; }
    }

    private OpenLoopSender() {}

    /**
     * Warms the JVM's HTTP paths (client and server) up: a cold, busy JVM answers its first requests in seconds,
     * which would be mistaken for the server's behaviour.
     */
    static void warmUp(URI target) {
        send(target, 200, 200, Duration.ofSeconds(10));
    }

    /**
     * {@code count} GETs one after another, each sent once the previous one is answered (closed loop, one user):
     * a load that a server under its capacity serves however slow the machine is. An open stream at a low rate is
     * not that on a loaded machine: a stall of a few hundred ms bunches its requests up, a small queue fills and
     * CoDel sheds what waited past its target, both rightly. Counts statuses as {@link #send} does.
     */
    static Result oneAtATime(URI target, int count, Duration timeout) {
        if (count > 1_000) throw new IllegalArgumentException("test sender is bounded to 1000 requests one at a time");
        Map<Integer, Long> counts = new TreeMap<>();
        org.HdrHistogram.Histogram latencies = new org.HdrHistogram.Histogram(3);
        try (java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
            java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(target).timeout(timeout).build();
            for (int i = 0; i < count; i++) {
                long t0 = System.nanoTime();
                int status;
                try {
                    status = client.send(request, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                } catch (java.io.IOException timedOutOrFailed) {
                    status = 0;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
                latencies.recordValue(Math.max(0, (System.nanoTime() - t0) / 1000));
                counts.merge(status, 1L, Long::sum);
            }
        }
        return new Result(counts, count, latencies.getValueAtPercentile(50), latencies.getValueAtPercentile(99));
    }

    static Result send(URI target, double ratePerSecond, int count, Duration timeout) {
        if (count > 20_000) throw new IllegalArgumentException("test sender is bounded to 20000 requests");
        Vertxes.init();
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(1));
        try {
            HttpClientAgent client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                    new PoolOptions().setHttp1MaxSize(1_000).setMaxWaitQueueSize(-1));
            Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
            org.HdrHistogram.ConcurrentHistogram latencies = new org.HdrHistogram.ConcurrentHistogram(3);
            CountDownLatch done = new CountDownLatch(count);
            RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(target.getHost())
                    .setPort(target.getPort()).setURI(target.getRawPath()).setTimeout(timeout.toMillis());
            // requests are made on the event loop, so each response's body handler is in place before its data arrives
            Context context = vertx.getOrCreateContext();
            // the lab's send loop, paced so that exactly `count` requests are due before its end
            Pacer pacer = new Pacer.Constant(ratePerSecond);
            new SendLoop(pacer, pacer.dueNanos(count - 1) + 1, 0, System::nanoTime, LockSupport::parkNanos, () -> false)
                    .withoutOverrun().run(System.nanoTime(), (i, intended, sentNanos) ->
                    context.runOnContext(v -> client.request(options).compose(req -> req.send()).compose(resp -> resp.body().map(b -> resp.statusCode()))
                        .onComplete(ar -> {
                            try {
                                latencies.recordValue(Math.max(0, (System.nanoTime() - intended) / 1000));
                                statuses.computeIfAbsent(ar.succeeded() ? ar.result() : 0, k -> new LongAdder()).increment();
                            } finally {
                                done.countDown();
                            }
                        })));
            boolean finished = done.await(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
            if (!finished)
                throw new AssertionError("sender did not finish within its timeout plus 5 s");
            Map<Integer, Long> counts = new TreeMap<>();
            statuses.forEach((k, v) -> counts.put(k, v.sum()));
            return new Result(counts, count, latencies.getValueAtPercentile(50), latencies.getValueAtPercentile(99));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
