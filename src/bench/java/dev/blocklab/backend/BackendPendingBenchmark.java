package dev.blocklab.backend;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import org.HdrHistogram.ConcurrentHistogram;

import java.net.URI;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A benchmark, not a test: how many delayed answers {@code blocklab backend} holds at once. Opens N calls of
 * {@code /call?delayMicros=D} as fast as it can over a few cleartext HTTP/2 connections (so the client's file
 * descriptors are not the limit), waits for all, and prints the backend's peak pending count, the delays seen by
 * the client, and the backend's own {@code /stats}.
 *
 * <pre>
 * java --enable-preview -cp target/test-classes:target/blocklab.jar dev.blocklab.backend.BackendPendingBenchmark \
 *      [http://127.0.0.1:PORT] [calls=20000] [delay=5s]
 * </pre>
 * Without a URL it starts a backend in this process (one event loop).
 */
public final class BackendPendingBenchmark {
    private BackendPendingBenchmark() {}

    public static void main(String[] args) throws Exception {
        Vertxes.init();
        URI target = args.length > 0 && args[0].startsWith("http") ? URI.create(args[0]) : null;
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        long delayMicros = args.length > 2 ? Long.parseLong(args[2]) : 5_000_000L;
        BackendServer local = target == null
                ? BackendServer.start(new BackendSettings("127.0.0.1", 0, Routes.profilePage(), 1, 1)) : null;
        URI uri = local != null ? local.uri() : target;
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(2));
        HttpClientAgent client = vertx.createHttpClient(new HttpClientOptions()
                        .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false)
                        .setHttp2MultiplexingLimit(10_000),
                new PoolOptions().setHttp2MaxSize(8).setMaxWaitQueueSize(-1));
        ConcurrentHistogram seenMicros = new ConcurrentHistogram(3);
        AtomicInteger ok = new AtomicInteger(), failed = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(calls);
        Context ctx = vertx.getOrCreateContext();
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setHost(uri.getHost()).setPort(uri.getPort())
                .setURI("/call?delayMicros=" + delayMicros + "&value=ok");
        long t0 = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            long start = System.nanoTime();
            ctx.runOnContext(v -> client.request(options).compose(req -> req.send()).compose(r -> r.body())
                    .onComplete(ar -> {
                        seenMicros.recordValue((System.nanoTime() - start) / 1_000);
                        (ar.succeeded() && ar.result().toString().equals("ok") ? ok : failed).incrementAndGet();
                        done.countDown();
                    }));
        }
        long sentNanos = System.nanoTime() - t0;
        long peak = 0;
        while (!done.await(100, TimeUnit.MILLISECONDS)) {
            if (local != null) peak = Math.max(peak, local.pending());
            if (System.nanoTime() - t0 > TimeUnit.MICROSECONDS.toNanos(delayMicros) + TimeUnit.SECONDS.toNanos(60)) break;
        }
        System.out.printf(Locale.ROOT, "calls %d of %d us delay; submitted in %.0f ms; ok %d, failed %d, unfinished %d%n",
                calls, delayMicros, sentNanos / 1e6, ok.get(), failed.get(), done.getCount());
        System.out.printf(Locale.ROOT, "client-side latency ms: p50 %.1f  p99 %.1f  max %.1f (configured %.1f)%n",
                seenMicros.getValueAtPercentile(50) / 1e3, seenMicros.getValueAtPercentile(99) / 1e3,
                seenMicros.getMaxValue() / 1e3, delayMicros / 1e3);
        var stats = vertx.createHttpClient().request(HttpMethod.GET, uri.getPort(), uri.getHost(), "/stats")
                .compose(req -> req.send()).compose(r -> r.body()).await(10, TimeUnit.SECONDS);
        System.out.println("backend /stats: " + stats);
        if (local != null) System.out.println("in-process peak pending sampled every 100 ms: " + peak);
        vertx.close().await(10, TimeUnit.SECONDS);
        if (local != null) local.close();
    }
}
