package dev.blocklab.attack;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.Context;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A non-blocking HTTP/1.1 client on Vert.x 5's event loops, with blocklab's own connection pool (the policy is in
 * docs/attack.md, "Connections"): one pool per event loop and host, keep-alive connections, no pipelining. Each
 * exchange is either blocklab's lean one (the default, {@code --client netty}: a Netty channel registered on the
 * loop, the request's bytes encoded once per target and written as they are, Netty's response decoder, no
 * future or header map per request) or Vert.x's HTTP client's ({@code --client vertx}); everything else below is
 * shared.
 *
 * <p>Implementation overview. Each send runs on one of the client's event-loop contexts in turn, and everything
 * about a request (its pool, its connection, its response) stays on that loop's thread, so the pool needs no
 * lock. A request takes the most recently used idle connection of its host; when none is idle it joins the
 * host's queue of waiting requests, and the pool's {@link ConnectionPolicy} decides from the measured service
 * and connect times whether waiting for a busy connection to free costs more than the request may wait; only
 * then are connections opened, at most {@link #MAX_CONNECTING_PER_LOOP} being opened at once per loop and at
 * most the loop's share of {@code maxConnections} open. Whichever connection frees first (a response completes,
 * or a connect succeeds) serves the oldest waiting request, so an opened connection is never tied to the request
 * that asked for it (Go's {@code net/http} races a dial against idle connections in the same way). Every
 * {@value #PROBE_EVERY_MILLIS} ms each loop sweeps its pools: requests past the whole-request timeout (queueing
 * for a connection included) end with a timeout and are reset, and the policy is asked again, since a queue
 * that nothing frees costs more the longer it waits (one sweep instead of a timer per request). The policy is
 * asked at once only when no connection is busy; otherwise at the sweep, after the loop has read the responses
 * that arrived meanwhile.
 *
 * <p>A kept-alive connection can close just as a request is sent on it (the server's idle timeout ends it while
 * the request is on its way); the lean exchange then sends the request again on another connection, as Go's
 * {@code net/http} Transport (vegeta's) does, when nothing at all came back, the connection had been kept for reuse
 * (idle, or handed on after an exchange), the request can be replayed ({@link #replayable}) and its timeout has not
 * passed; at most {@value #MAX_RETRIES} times (Go sets no bound), its latency still counted from its intended send
 * and its timeout from its first pick-up.
 *
 * <p>The transport also measures itself: a periodic probe on each event loop records how late its timer
 * fires (the loop's lag: how long a response that arrived would wait before being read), split by cause from the
 * loop thread's scheduler statistics ({@link LagCauses}), and the loops' thread ids let {@link Attack} read their
 * CPU time.
 */
final class VertxTransport implements Transport {
    static {
        // Vert.x finds the SLF4J API on the class path without a binding; keep its three-line notice off stderr.
        if (System.getProperty("slf4j.internal.verbosity") == null) System.setProperty("slf4j.internal.verbosity", "ERROR");
    }

    /**
     * How many connections one event loop may be opening at once: bounds the opening rate in a burst. 8, not the
     * 64 it was: an attacker paused for 200 ms at 30,000/s (bench/attacker-pause.sh) opened 2,700 to 10,000
     * connections for its backlog with 64 and took 110 to 530 ms to catch up after the pause; with 8, 1,120 to
     * 1,960 and 40 to 110 ms, while 8 loopback connects at once still open the thousands a 500 ms target needs at
     * 10,000/s within the warm-up (docs/attack.md, "After a pause of the attacker").
     */
    static final int MAX_CONNECTING_PER_LOOP = Integer.getInteger("blocklab.attack.connectingPerLoop", 8);
    /** How many times one request is sent again after a reused connection closed without a byte of answer. */
    static final int MAX_RETRIES = 3;
    /** How often each event loop's lag probe fires. */
    static final long PROBE_EVERY_MILLIS = 5;

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final boolean lean;
    private final long timeoutMillis;
    private final long timeoutNanos;
    private final Map<Target, Prepared> prepared = new ConcurrentHashMap<>();
    private final Loop[] loops;
    private final AtomicLong nextLoop = new AtomicLong();
    private volatile boolean closing;
    private final AtomicLong retried = new AtomicLong();
    private final Recorder lagNanos = new Recorder(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);

    private volatile Prepared lastPrepared;

    /**
     * A target made ready to send: Vert.x's request options and body, and for the lean exchange the request's
     * bytes encoded once ({@code wire}: each send writes a duplicate; released at close), whether it is a HEAD
     * request (its response has no body whatever its headers say) and the resolved address.
     */
    private record Prepared(Target target, RequestOptions options, Buffer body, String label, String hostKey,
                            HttpConnectOptions connect, ByteBuf wire, boolean head, InetSocketAddress address,
                            boolean replayable) {}

    /**
     * With {@code lean}, each exchange is blocklab's own over a Netty channel on the same event loops (the
     * request encoded once per target, Netty's response decoder, no per-request futures or header maps); without
     * it, Vert.x's HTTP client's. The pool, the policy and the probes are the same either way.
     */
    VertxTransport(long timeoutNanos, int maxConnections, boolean lean) {
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.vertx = dev.blocklab.backend.Vertxes.create(new VertxOptions().setEventLoopPoolSize(threads).setWorkerPoolSize(1)
                .setBlockedThreadCheckInterval(10).setBlockedThreadCheckIntervalUnit(TimeUnit.SECONDS));
        this.timeoutMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeoutNanos));
        this.timeoutNanos = timeoutNanos;
        this.lean = lean;
        this.client = lean ? null : vertx.httpClientBuilder()
                .with(new HttpClientOptions().setKeepAlive(true).setPipelining(false)
                        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis)))
                .build();
        // With fewer connections allowed than loops, use only as many loops as connections, so the cap holds.
        int used = Math.min(threads, maxConnections);
        this.loops = new Loop[used];
        for (int i = 0; i < used; i++) {
            int share = maxConnections / used + (i < maxConnections % used ? 1 : 0);
            loops[i] = new Loop(share);
        }
    }

    private Prepared prepare(Target t) {
        RequestOptions o = new RequestOptions().setMethod(HttpMethod.valueOf(t.method()))
                .setHost(t.url().getHost()).setPort(t.port()).setURI(t.pathAndQuery());
        for (var h : t.headers()) o.addHeader(h.getKey(), h.getValue());
        HttpConnectOptions c = new HttpConnectOptions().setHost(t.url().getHost()).setPort(t.port())
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeoutMillis));
        ByteBuf wire = lean ? Unpooled.unreleasableBuffer(Unpooled.directBuffer().writeBytes(encode(t))) : null;
        InetSocketAddress address = lean ? new InetSocketAddress(t.url().getHost().replaceAll("^\\[|\\]$", ""), t.port()) : null;
        return new Prepared(t, o, Buffer.buffer(t.bodyUnsafe()), t.label(), t.url().getHost() + ":" + t.port(), c,
                wire, "HEAD".equals(t.method()), address, replayable(t));
    }

    /**
     * Whether a request may be sent again when a reused connection closed before any answer: the rule of Go's
     * {@code net/http} Transport, whose client vegeta is, a method that is idempotent by definition (GET, HEAD,
     * OPTIONS, TRACE) or an {@code Idempotency-Key} or {@code X-Idempotency-Key} header.
     */
    static boolean replayable(Target t) {
        return switch (t.method()) {
            case "GET", "HEAD", "OPTIONS", "TRACE" -> true;
            default -> t.headers().stream().anyMatch(h -> h.getKey().equalsIgnoreCase("Idempotency-Key")
                    || h.getKey().equalsIgnoreCase("X-Idempotency-Key"));
        };
    }

    /**
     * The whole HTTP/1.1 request as bytes: the request line, the target's headers, a {@code Host} header unless
     * the target has one, a {@code Content-Length} when there is a body (or the method usually carries one) and
     * the target sets none, then the body.
     */
    static byte[] encode(Target t) {
        StringBuilder head = new StringBuilder(128).append(t.method()).append(' ').append(t.pathAndQuery()).append(" HTTP/1.1\r\n");
        boolean host = false, length = false;
        for (var h : t.headers()) {
            host |= h.getKey().equalsIgnoreCase("host");
            length |= h.getKey().equalsIgnoreCase("content-length") || h.getKey().equalsIgnoreCase("transfer-encoding");
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (!host) head.append("Host: ").append(t.url().getHost()).append(t.url().getPort() < 0 ? "" : ":" + t.port()).append("\r\n");
        int bodyLength = t.bodyLength();
        if (!length && (bodyLength > 0 || t.method().equals("POST") || t.method().equals("PUT") || t.method().equals("PATCH")))
            head.append("Content-Length: ").append(bodyLength).append("\r\n");
        head.append("\r\n");
        byte[] h = head.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(h, h.length + bodyLength);
        System.arraycopy(t.bodyUnsafe(), 0, all, h.length, bodyLength);
        return all;
    }

    /**
     * Prepares every target, so the request path's classes are loaded before the schedule's clock starts, and
     * opens one connection per host on each loop (kept idle for the attack). Sends no HTTP request; an
     * unreachable target is ignored here (the attack then records its errors).
     */
    @Override public void warmUp(List<Target> targets) {
        List<Future<Void>> connects = new ArrayList<>();
        Map<String, Prepared> hosts = new HashMap<>();
        for (Target t : targets) {
            Prepared p = prepared.computeIfAbsent(t, this::prepare);
            hosts.putIfAbsent(p.hostKey(), p);
        }
        for (Loop loop : loops)
            for (Prepared p : hosts.values()) {
                io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
                loop.context.runOnContext(v -> loop.pool(p).preconnect(done));
                connects.add(done.future());
            }
        try {
            Future.all(connects).await(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // warming up is best effort
        }
    }

    @Override public void send(Target target, Completion completion) {
        // Attacks send the same few Target instances: the last one is found by identity, sparing the map's
        // URI.equals on every send.
        Prepared p = prepared(target);
        Loop loop = loops[(int) (nextLoop.getAndIncrement() % loops.length)];
        loop.context.runOnContext(v -> loop.pool(p).send(new Exchange(p, completion)));
    }

    private Prepared prepared(Target target) {
        Prepared last = lastPrepared;
        return last != null && last.target() == target ? last : (lastPrepared = prepared.computeIfAbsent(target, this::prepare));
    }

    @Override public List<EventLoop> eventLoops() { return List.of(loops); }

    @Override public long[] eventLoopThreadIds() {
        long[] ids = new long[loops.length];
        for (int i = 0; i < loops.length; i++) ids[i] = loops[i].threadId;
        return ids;
    }

    @Override public Histogram eventLoopLagNanos() { return lagNanos.getIntervalHistogram(); }

    @Override public LagCauses eventLoopLagCauses() {
        LagCauses sum = LagCauses.NONE;
        for (Loop l : loops) {
            if (!l.schedStats) return null;
            sum = sum.plus(l.lagCauses);
        }
        return sum;
    }

    @Override public long retriedRequests() { return retried.get(); }

    @Override public int openConnections() {
        int n = 0;
        for (Loop l : loops) n += l.open.get();
        return n;
    }

    @Override public void close() {
        closing = true;
        for (Loop l : loops) if (l.sched != null) l.sched.close();
        Future<Void> f = client == null ? vertx.close() : client.close().eventually(vertx::close);
        try {
            f.await(3, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing is best effort: the attack's results are already complete
        }
        for (Prepared p : prepared.values()) if (p.wire() != null) p.wire().unwrap().release(); // the encoded requests' direct memory
    }

    /**
     * One event loop: its context, its pools by host, its probe. Pools are touched only on this loop's thread. It
     * paces its share of an open schedule on Netty's timer (epoll's wait ends at the next due send; no thread
     * wakes it) and runs each step inside its Vert.x context.
     */
    private final class Loop implements EventLoop {
        final Context context;
        final int maxOpen;
        final Map<String, HostPool> pools = new HashMap<>();
        final AtomicLong open = new AtomicLong();
        volatile long threadId;
        /** The loop thread's scheduler statistics (null where the kernel gives none); read on the loop only. */
        dev.blocklab.recorder.ThreadSchedStat sched;
        volatile boolean schedStats;
        private final long[] schedNow = new long[2];
        private long ranNanos, waitedNanos;
        /** The probes' lateness split by cause; written on the loop, read by the attack's meter. */
        volatile LagCauses lagCauses = LagCauses.NONE;

        Loop(int maxOpen) {
            this.maxOpen = maxOpen;
            // A thread outside Vert.x keeps one sticky context, so each loop's context is made on a short-lived
            // thread of its own, and the event loops are handed out in turn.
            Context[] made = new Context[1];
            Thread t = Thread.ofPlatform().start(() -> made[0] = vertx.getOrCreateContext());
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting the HTTP client", e);
            }
            this.context = made[0];
            java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(1);
            context.runOnContext(v -> {
                threadId = Thread.currentThread().threadId();
                sched = dev.blocklab.recorder.ThreadSchedStat.ofCurrentThread();
                if (sched != null && sched.read(schedNow)) {
                    ranNanos = schedNow[0];
                    waitedNanos = schedNow[1];
                    schedStats = true;
                }
                probe();
                ready.countDown();
            });
            try {
                ready.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Arms the lag probe: a one-shot timer whose lateness is recorded, then armed again from its firing. */
        private void probe() {
            if (closing) return;
            long due = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_EVERY_MILLIS);
            vertx.setTimer(PROBE_EVERY_MILLIS, id -> {
                long late = Math.max(0, System.nanoTime() - due);
                // corrected for coordinated omission: a stall of one second counts as the 200 probes it held up
                lagNanos.recordValueWithExpectedInterval(Math.min(AttackRecorder.HIGHEST_TRACKABLE_NANOS, late),
                        TimeUnit.MILLISECONDS.toNanos(PROBE_EVERY_MILLIS));
                if (schedStats && sched.read(schedNow)) {
                    lagCauses = lagCauses.plus(late, schedNow[0] - ranNanos, schedNow[1] - waitedNanos);
                    ranNanos = schedNow[0];
                    waitedNanos = schedNow[1];
                }
                long now = System.nanoTime();
                for (HostPool pool : pools.values()) pool.sweep(now, now - due);
                probe();
            });
        }

        @Override public void schedule(Runnable task, long delayNanos) {
            ContextInternal c = (ContextInternal) context;
            Runnable inContext = () -> c.emit(v -> task.run());
            if (delayNanos <= 0) c.nettyEventLoop().execute(inContext);
            else c.nettyEventLoop().schedule(inContext, delayNanos, TimeUnit.NANOSECONDS);
        }

        @Override public void sendHere(Target target, Completion completion) {
            Prepared p = prepared(target);
            pool(p).send(new Exchange(p, completion));
        }

        HostPool pool(Prepared p) { return pools.computeIfAbsent(p.hostKey(), k -> new HostPool(this, p.connect(), p.address())); }
    }

    /** A kept-alive connection of one pool, carrying one exchange at a time, and whether it has closed. */
    private abstract static class Conn {
        final HostPool pool;
        boolean closed;
        /**
         * Whether it was kept for reuse, idle or handed on after an exchange (Go's "reused"): a request on a fresh
         * connection that closes unanswered is the server refusing it, not a stale connection.
         */
        boolean reused;
        Conn(HostPool pool) { this.pool = pool; }
        /** False once it is known to be closing (its close handler may not have run yet): not to be handed a request. */
        boolean usable() { return !closed; }
        /** Sends {@code x}'s request; its end (response, failure or close) calls {@link HostPool#done} once. */
        abstract void exchange(Exchange x);
        /** Abandons {@code x} (timed out): the connection is not reused. */
        abstract void abort(Exchange x);
        abstract void close();
    }

    /** A connection of Vert.x's HTTP client. */
    private static final class VertxConn extends Conn {
        final HttpClientConnection connection;

        VertxConn(HostPool pool, HttpClientConnection c) {
            super(pool);
            this.connection = c;
        }

        @Override void exchange(Exchange x) {
            connection.request(new RequestOptions(x.p.options()))
                    .compose(req -> {
                        x.request = req;
                        return req.send(x.p.body());
                    })
                    .compose(resp -> resp.body().map(body -> new long[]{resp.statusCode(), body.length(),
                            reusable(resp, x.p.head()) ? 0 : 1}))
                    .onComplete(ar -> {
                        if (ar.succeeded()) pool.done(x, this, (int) ar.result()[0], ar.result()[1], ar.result()[2] == 0, null);
                        else pool.done(x, this, 0, 0, false, Transport.describe(ar.cause()));
                    });
        }

        @Override void abort(Exchange x) {
            if (x.request != null) x.request.reset();
        }

        /**
         * Whether the connection may carry another request after {@code r}: not when the server says close, or
         * speaks HTTP/1.0 without keep-alive, or ended a body by closing (no length, not chunked, and a response
         * that has a body).
         */
        static boolean reusable(io.vertx.core.http.HttpClientResponse r, boolean head) {
            String connection = r.getHeader("connection");
            if ("close".equalsIgnoreCase(connection)) return false;
            if (r.version() == io.vertx.core.http.HttpVersion.HTTP_1_0 && !"keep-alive".equalsIgnoreCase(connection)) return false;
            int s = r.statusCode();
            boolean bodiless = head || s / 100 == 1 || s == 204 || s == 304;
            return bodiless || r.getHeader("content-length") != null || r.getHeader("transfer-encoding") != null;
        }

        @Override void close() { connection.close(); }
    }

    /**
     * A Netty channel on the pool's event loop: writes each request's bytes as encoded once, reads the response
     * through Netty's decoder and counts its body's bytes, on the loop's thread only.
     */
    private static final class NettyConn extends Conn {
        final LeanDecoder decoder = new LeanDecoder();
        Channel channel;
        /** The exchange on this connection, or null between exchanges. */
        Exchange current;
        int status;
        long bytesIn;
        boolean keepAlive, informational;
        /** Whether any byte of an answer arrived for the current exchange. */
        boolean received;
        String error;

        NettyConn(HostPool pool) { super(pool); }

        void attach(Channel ch) {
            this.channel = ch;
            ch.pipeline().addLast(decoder, new SimpleChannelInboundHandler<HttpObject>() {
                @Override protected void channelRead0(ChannelHandlerContext ctx, HttpObject m) { read(m); }
                @Override public void channelInactive(ChannelHandlerContext ctx) { inactive(); }
                @Override public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    if (error == null) error = Transport.describe(cause);
                    ctx.close();
                }
            });
        }

        @Override void exchange(Exchange x) {
            current = x;
            status = 0;
            bytesIn = 0;
            informational = false;
            received = false;
            decoder.head = x.p.head();
            channel.writeAndFlush(x.p.wire().duplicate(), channel.voidPromise());
        }

        private void read(HttpObject m) {
            received = true;
            Exchange x = current;
            if (x == null) { // a response nobody asked for: the connection is out of step
                channel.close();
                return;
            }
            if (m.decoderResult().isFailure()) {
                error = "bad response: " + Transport.describe(m.decoderResult().cause());
                channel.close();
                return;
            }
            if (m instanceof HttpResponse r) {
                int code = r.status().code();
                // an interim response (100 Continue, 103 Early Hints) precedes the real one
                informational = code >= 100 && code < 200 && code != 101;
                if (!informational) {
                    status = code;
                    keepAlive = HttpUtil.isKeepAlive(r);
                }
            }
            if (m instanceof HttpContent c) {
                if (!informational) bytesIn += c.content().readableBytes();
                if (m instanceof LastHttpContent && !informational) {
                    current = null;
                    // a body that ends with the connection (neither length nor chunks) leaves it closing
                    pool.done(x, this, status, bytesIn, keepAlive && channel.isActive(), null);
                }
            }
        }

        private void inactive() {
            Exchange x = current;
            current = null;
            if (x != null) {
                // A reused connection that ended before any byte of the answer: most likely the server closed it
                // as idle while the request was on its way; the request never reached its handler.
                if (!received && reused && x.p.replayable() && x.retries < MAX_RETRIES && !x.done && pool.inTime(x)) pool.retry(x);
                else pool.done(x, this, 0, 0, false, error != null ? error : "Connection was closed");
            }
            pool.closed(this);
        }

        @Override void abort(Exchange x) { channel.close(); }

        @Override void close() { channel.close(); }

        /** Netty closes a channel as soon as it reads the peer's end, and tells the pool in a later task. */
        @Override boolean usable() { return !closed && channel.isActive(); }
    }

    /** Netty's response decoder, told when the response answers a HEAD request (no body whatever it says). */
    private static final class LeanDecoder extends HttpResponseDecoder {
        boolean head;

        LeanDecoder() { super(new HttpDecoderConfig().setValidateHeaders(false)); }

        @Override protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            return head || super.isContentAlwaysEmpty(msg);
        }
    }

    /** One request from its send to its completion; touched only on its loop's thread. */
    private static final class Exchange {
        final Prepared p;
        final Completion completion;
        boolean done, waiting;
        /** How many times it was sent again ({@link HostPool#retry}). */
        int retries;
        long pickedUpNanos, onWireNanos;
        /** Vert.x's request, once made (its client only). */
        HttpClientRequest request;
        /** The connection carrying it, once on one. */
        Conn conn;

        Exchange(Prepared p, Completion completion) {
            this.p = p;
            this.completion = completion;
        }

        /** Completes once; later calls do nothing. */
        boolean finish(int status, long bytesIn, String error) {
            if (done) return false;
            done = true;
            long wire = onWireNanos == 0 ? System.nanoTime() : onWireNanos;
            completion.complete(onWireNanos, wire - pickedUpNanos, status, bytesIn, error);
            return true;
        }
    }

    /**
     * The connections of one host on one loop: idle ones (most recently used first), the requests waiting for
     * one (oldest first), the requests on a connection (in the order they left, which is also the order they were
     * picked up: a free connection always serves the oldest waiting request), and the counts the
     * {@link ConnectionPolicy} decides from. Timeouts are found by {@link #sweep} from the heads of the two queues,
     * not by a timer per request.
     */
    private final class HostPool {
        final Loop loop;
        final HttpConnectOptions connectOptions;
        /** The lean exchange's resolved address, and its bootstrap once made. */
        final InetSocketAddress address;
        Bootstrap bootstrap;
        final ConnectionPolicy policy = new ConnectionPolicy();
        final ArrayDeque<Conn> idle = new ArrayDeque<>();
        final ArrayDeque<Exchange> waiters = new ArrayDeque<>();
        final ArrayDeque<Exchange> onWire = new ArrayDeque<>();
        int waiting, connecting, busy;

        HostPool(Loop loop, HttpConnectOptions connectOptions, InetSocketAddress address) {
            this.loop = loop;
            this.connectOptions = connectOptions;
            this.address = address;
        }

        void send(Exchange x) {
            x.pickedUpNanos = System.nanoTime();
            // Only when no connection will free is the decision made at once; otherwise at the next sweep, after
            // the loop has read the responses that arrived meanwhile: a loop that was descheduled finds its queue
            // of sends ahead of the responses that free connections, and must not open a connection for each.
            if (!startOrQueue(x, false) && busy == 0) openAsNeeded(x.pickedUpNanos, 0);
        }

        /**
         * Starts {@code x} on the most recently used idle connection, or queues it (last, or first when it was
         * picked up before every waiting request); true when it started.
         */
        private boolean startOrQueue(Exchange x, boolean first) {
            Conn c;
            while ((c = idle.pollFirst()) != null && !c.usable()) {
                // closing: its close handler counts it closed
            }
            if (c != null) {
                start(x, c);
                return true;
            }
            x.waiting = true;
            if (first) waiters.addFirst(x);
            else waiters.addLast(x);
            waiting++;
            return false;
        }

        /**
         * Times out the requests whose timeout has passed (oldest first), then reconsiders opening; the loop ran
         * {@code lagNanos} late just now.
         */
        void sweep(long now, long lagNanos) {
            Exchange x;
            while ((x = waiters.peekFirst()) != null && (!x.waiting || now - x.pickedUpNanos >= timeoutNanos)) {
                waiters.pollFirst();
                if (x.waiting) {
                    x.waiting = false;
                    waiting--;
                    x.finish(0, 0, x.p.label() + ": timeout after " + timeoutMillis + "ms");
                }
            }
            // a request sent again keeps its place here while it waits among the waiters (timed out there first:
            // it is older than every request behind it), so the sweep stops at it
            while ((x = onWire.peekFirst()) != null && (x.done || (!x.waiting && now - x.pickedUpNanos >= timeoutNanos))) {
                onWire.pollFirst();
                if (!x.done) {
                    Conn c = x.conn;
                    x.finish(0, 0, x.p.label() + ": timeout after " + timeoutMillis + "ms");
                    if (c != null) c.abort(x);
                }
            }
            openAsNeeded(now, lagNanos);
        }

        /**
         * How many waiting requests (oldest first) have waited longer than the policy's overdue time plus the
         * loop's lag just now (a loop working off a backlog ages its own queue: that wait is not the target's).
         */
        private int overdue(long now, long lagNanos) {
            long limit = policy.overdueNanos() + Math.max(0, lagNanos);
            int n = 0;
            for (Exchange x : waiters) {
                if (!x.waiting) continue;
                if (now - x.pickedUpNanos <= limit) break;
                n++;
            }
            return n;
        }

        /** When the oldest request still on a connection left (pops those already done); {@code now} if none. */
        private long oldestBusySince(long now) {
            Exchange x;
            while ((x = onWire.peekFirst()) != null && x.done) onWire.pollFirst();
            if (x == null) return now;
            if (!x.waiting) return x.onWireNanos;
            for (Exchange e : onWire) if (!e.done && !e.waiting) return e.onWireNanos;   // behind a request sent again
            return now;
        }

        /** Opens the connections the policy asks for, within both bounds. */
        private void openAsNeeded(long now, long lagNanos) {
            if (waiting <= connecting) return;
            int n = policy.toOpen(now, waiting, connecting, busy, oldestBusySince(now), lagNanos, overdue(now, lagNanos));
            while (n-- > 0 && connecting < MAX_CONNECTING_PER_LOOP && loop.open.get() < loop.maxOpen) {
                connecting++;
                connect().onComplete(ar -> {
                    connecting--;
                    if (ar.failed()) {
                        // The request that asked for this connection gets its error, as Go's Transport does.
                        Exchange x = nextWaiter();
                        if (x != null) x.finish(0, 0, x.p.label() + ": " + Transport.describe(ar.cause()));
                        openAsNeeded(System.nanoTime(), 0);
                    }
                });
            }
        }

        /** Opens one connection, counted open from now; once open it serves the oldest waiting request or waits idle. */
        private Future<Conn> connect() {
            loop.open.incrementAndGet();
            long began = System.nanoTime();
            Future<Conn> connected = lean ? connectNetty() : client.connect(connectOptions).map(connection -> {
                Conn c = new VertxConn(this, connection);
                connection.closeHandler(v -> closed(c));
                return c;
            });
            return connected.map(c -> {
                policy.connectTime(System.nanoTime() - began);
                release(c);
                return c;
            }).onFailure(e -> loop.open.decrementAndGet());
        }

        /** Opens a Netty channel on this pool's event loop; completes on that loop. */
        private Future<Conn> connectNetty() {
            io.vertx.core.Promise<Conn> done = io.vertx.core.Promise.promise();
            NettyConn c = new NettyConn(this);
            if (bootstrap == null)
                bootstrap = new Bootstrap().group(((ContextInternal) loop.context).nettyEventLoop())
                        .channelFactory(((VertxInternal) vertx).transport().channelFactory(false))
                        .option(ChannelOption.TCP_NODELAY, true)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeoutMillis));
            bootstrap.clone().handler(new ChannelInitializer<Channel>() {
                @Override protected void initChannel(Channel ch) { c.attach(ch); }
            }).connect(address).addListener((ChannelFuture f) -> {
                if (f.isSuccess()) done.complete(c);
                else done.fail(f.cause());
            });
            return done.future();
        }

        /**
         * An exchange on {@code c} ended: with the response's status, body bytes and whether the connection stays
         * open, or with {@code error}. Frees the connection for the oldest waiting request, or closes it.
         */
        void done(Exchange x, Conn c, int status, long bytesIn, boolean keepAlive, String error) {
            busy--;
            if (error == null) {
                policy.serviceTime(System.nanoTime() - x.onWireNanos);
                x.finish(status, bytesIn, null);
                if (keepAlive) {
                    c.reused = true;
                    release(c);
                }
                else c.close(); // the server closes it: do not hand it to another request
            } else {
                x.finish(0, 0, x.p.label() + ": " + error);
                c.close(); // a failed exchange leaves the connection in an unknown state
            }
        }

        /**
         * Sends {@code x} again, its connection having closed without answering: on an idle connection if there is
         * one, else first in the queue of waiting requests (it was picked up before any of them).
         */
        void retry(Exchange x) {
            busy--;
            x.retries++;
            x.conn = null;
            x.onWireNanos = 0;   // on no connection until it starts again (a timeout in the queue reports none)
            // It keeps its place in onWire (the sweep passes over it while it waits) and does not join it again.
            retried.incrementAndGet();
            startOrQueue(x, true);
        }

        /** Whether {@code x}'s timeout, counted from its first pick-up, has not passed yet. */
        boolean inTime(Exchange x) { return System.nanoTime() - x.pickedUpNanos < timeoutNanos; }

        private Exchange nextWaiter() {
            Exchange x;
            while ((x = waiters.pollFirst()) != null) {
                if (!x.waiting) continue; // timed out while waiting
                x.waiting = false;
                waiting--;
                return x;
            }
            return null;
        }

        /** A free connection serves the oldest waiting request, or waits idle. */
        private void release(Conn c) {
            if (c.closed) return;
            Exchange x = nextWaiter();
            if (x != null) start(x, c);
            else {
                c.reused = true;
                idle.addFirst(c);
            }
        }

        private void closed(Conn c) {
            if (c.closed) return;
            c.closed = true;
            idle.remove(c);
            loop.open.decrementAndGet();
            openAsNeeded(System.nanoTime(), 0);
        }

        private void start(Exchange x, Conn c) {
            x.onWireNanos = System.nanoTime();
            x.conn = c;
            busy++;
            if (x.retries == 0) onWire.addLast(x);   // one sent again is still in it
            if (onWire.size() > 2 * busy + 64) onWire.removeIf(e -> e.done); // a stuck head holds finished ones behind it
            c.exchange(x);
        }

        /** Opens one idle connection ahead of the attack (best effort); completes {@code done} either way. */
        void preconnect(io.vertx.core.Promise<Void> done) {
            if (loop.open.get() >= loop.maxOpen) done.tryComplete();
            else connect().onComplete(ar -> done.tryComplete());
        }
    }
}
