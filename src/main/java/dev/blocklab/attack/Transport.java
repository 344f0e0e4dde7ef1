package dev.blocklab.attack;

import java.util.List;

/**
 * An HTTP client behind one method. {@link #send} may be called from one thread (the send loop) or from
 * completion threads (closed users); it must not block. A client with event loops also offers them
 * ({@link #eventLoops}) to pace an open schedule on. The completion is called exactly once, on a client
 * thread, with the response or the error; a timeout counts from the call to {@link #send}.
 */
interface Transport extends AutoCloseable {

    /**
     * Called once per request with the {@link System#nanoTime} at which it left on a connection (0 when the
     * client cannot tell: then its send), how long of the time before that it waited for a connection (in the
     * pool's queue or for a connect; the rest since its send is the client picking it up), the status (0 without
     * a response), body bytes read, and the error or null.
     */
    @FunctionalInterface interface Completion {
        void complete(long onWireNanos, long connectionWaitNanos, int status, long bytesIn, String error);
    }

    void send(Target target, Completion completion);

    /**
     * One of the client's event loops, able to pace a share of the schedule itself: its timer wakes it when a
     * request is due and it sends on its own connections, so no request passes from a send-loop thread to it
     * (a wake-up, a queue and a context switch per request).
     */
    interface EventLoop {
        /** Runs {@code task} on this loop after about {@code delayNanos} (0: as soon as it can). */
        void schedule(Runnable task, long delayNanos);

        /** As {@link Transport#send}, on this loop's own connections; called on this loop only. */
        void sendHere(Target target, Completion completion);
    }

    /**
     * The loops an open schedule is paced on (the attack splits it among them); empty when the client has none,
     * and then one send loop paces and {@link #send} hands each request to the client.
     */
    default List<EventLoop> eventLoops() { return List.of(); }

    /** Prepares for {@code targets} before the clock starts, without sending requests; best effort. */
    default void warmUp(List<Target> targets) {}

    /** The ids of the client's event-loop threads, whose CPU time the attack reports; empty without any. */
    default long[] eventLoopThreadIds() { return new long[0]; }

    /** How late the client's event loops ran a periodic probe since the last call, in nanoseconds; null if not measured. */
    default org.HdrHistogram.Histogram eventLoopLagNanos() { return null; }

    /** The event loops' probe lateness so far, split by cause (cumulative); null if not measured. */
    default LagCauses eventLoopLagCauses() { return null; }

    /** Connections open now (or -1 when the client does not say). */
    default int openConnections() { return -1; }

    /**
     * Requests sent again so far because a reused connection closed before any byte of their answer (the target
     * closing it as idle as they left): each is still one request, its latency counted from its intended send.
     */
    default long retriedRequests() { return 0; }

    /** Releases connections and threads; waits for them to end. */
    @Override void close();

    static Transport create(AttackSettings settings) {
        return switch (settings.client()) {
            case VERTX -> new VertxTransport(settings.timeoutNanos(), settings.maxConnections(), false);
            case NETTY -> new VertxTransport(settings.timeoutNanos(), settings.maxConnections(), true);
            case JDK -> new JdkTransport(settings.timeoutNanos(), settings.maxConnections());
        };
    }

    /**
     * A short, stable error text: the root cause's message, or its class name when it has none. A host that does not
     * resolve says so, as Go's resolver does ({@code lookup HOST: no such host}): its exception's message is the host alone.
     */
    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            // the JDK client's refused connection: a ConnectException with no message around a ClosedChannelException
            // (the same as a client closed while it connects, which an attack does not do before its end)
            if (root instanceof java.net.ConnectException c && (c.getMessage() == null || c.getMessage().isBlank())
                    && c.getCause() instanceof java.nio.channels.ClosedChannelException)
                return "Connection refused";
            root = root.getCause();
        }
        String m = root.getMessage();
        if (root instanceof java.net.UnknownHostException && m != null && !m.isBlank() && !m.contains(" "))
            return "lookup " + m + ": no such host";
        if (m == null || m.isBlank()) return root.getClass().getSimpleName();
        return m.length() > 200 ? m.substring(0, 200) : m;
    }
}
