package dev.blocklab.server;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's counters, written by event loops and handler threads (lock-free), and their rendering in the
 * Prometheus text exposition format (version 0.0.4) for {@code /metrics}.
 */
final class ServerMetrics {
    private record Key(String endpoint, int status) {}

    private final Map<Key, LongAdder> requests = new ConcurrentHashMap<>();
    private final LongAdder shed = new LongAdder();
    private final LongAdder deadlinePassed = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder connectionErrors = new LongAdder();
    private final Map<String, LongAdder> eventLoopBlocking = new ConcurrentHashMap<>();
    private final LongAdder eventLoopHeldNanos = new LongAdder();
    final AtomicInteger connections = new AtomicInteger();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    void answered(String endpoint, int status) {
        requests.computeIfAbsent(new Key(endpoint, status), k -> new LongAdder()).increment();
    }

    void shed() { shed.increment(); }

    /** A request answered 504 by its deadline ({@code --request-timeout}); also counted under its endpoint. */
    void deadlinePassed() { deadlinePassed.increment(); }

    long deadlineCount() { return deadlinePassed.sum(); }

    private final Map<String, Boolean> failureKinds = new ConcurrentHashMap<>();

    /** True the first time a failure of this kind (an exception class name) is seen. */
    boolean failedFirstTime(String kind) { return failureKinds.putIfAbsent(kind, Boolean.TRUE) == null; }

    void malformed() { malformed.increment(); }

    void connectionError() { connectionErrors.increment(); }

    /** A handler of {@code endpoint} that blocks ran on an event loop; returns true the first time for it. */
    boolean blockedEventLoop(String endpoint) {
        boolean[] first = {false};
        LongAdder a = eventLoopBlocking.computeIfAbsent(endpoint, k -> {
            first[0] = true;
            return new LongAdder();
        });
        a.increment();
        return first[0];
    }

    void heldEventLoop(long nanos) { eventLoopHeldNanos.add(nanos); }

    long shedCount() { return shed.sum(); }

    long count(String endpoint, int status) {
        LongAdder a = requests.get(new Key(endpoint, status));
        return a == null ? 0 : a.sum();
    }

    long eventLoopBlockingCount() { return eventLoopBlocking.values().stream().mapToLong(LongAdder::sum).sum(); }

    String render(ServerProfile profile, RequestDispatcher dispatcher, int models) {
        StringBuilder b = new StringBuilder(2048);
        help(b, "blocklab_requests_total", "counter", "Requests answered, by endpoint and HTTP status.");
        new TreeMap<String, Long>(requests.entrySet().stream().collect(java.util.stream.Collectors.toMap(
                e -> "endpoint=\"" + e.getKey().endpoint() + "\",status=\"" + e.getKey().status() + "\"",
                e -> e.getValue().sum()))).forEach((labels, v) -> line(b, "blocklab_requests_total{" + labels + "}", v));
        metric(b, "blocklab_requests_in_flight", "gauge", "Admitted requests not yet answered.", dispatcher.inFlight());
        metric(b, "blocklab_requests_waiting", "gauge", "Admitted requests waiting for a handler thread (the bounded request queue).", dispatcher.waiting());
        metric(b, "blocklab_request_queue_capacity", "gauge", "Bound of the request queue (queueing profiles) or of requests in flight (virtual, event-loop).", dispatcher.capacity());
        metric(b, "blocklab_shed_total", "counter", "Requests answered 503 at once because the bound was reached.", shed.sum());
        metric(b, "blocklab_deadline_exceeded_total", "counter", "Requests answered 504 by their deadline (--request-timeout); "
                + "each is also in blocklab_requests_total under its endpoint with status 504, beside downstream timeouts.", deadlinePassed.sum());
        metric(b, "blocklab_shed_by_queue_delay_total", "counter", "Requests shed because they waited in an overloaded queue over twice the target delay (admission codel).", dispatcher.delayShedCount());
        metric(b, "blocklab_thread_start_failures_total", "counter", "Times the OS refused a new handler thread (OutOfMemoryError: unable to create native thread); each such request was answered 503.", dispatcher.threadStartFailures());
        metric(b, "blocklab_pool_thread_cap", "gauge", "Handler threads the pool may start after the OS refused one (-1: never capped).", dispatcher.threadCap());
        metric(b, "blocklab_malformed_requests_total", "counter", "Malformed HTTP requests answered 400.", malformed.sum());
        metric(b, "blocklab_connection_errors_total", "counter",
                "Errors on client connections, most often an answer written after the client closed the connection.", connectionErrors.sum());
        metric(b, "blocklab_handlers_running", "gauge", "Request handlers running now.", dispatcher.running());
        help(b, "blocklab_executor_queue_length", "gauge", "Tasks queued in an executor: the profile's (requests and continuations) and ForkJoinPool.commonPool (async-blocking's calls).");
        line(b, "blocklab_executor_queue_length{pool=\"" + profile.name() + "\"}", dispatcher.executorQueueLength());
        ForkJoinPool common = ForkJoinPool.commonPool();
        line(b, "blocklab_executor_queue_length{pool=\"common\"}", common.getQueuedSubmissionCount() + common.getQueuedTaskCount());
        help(b, "blocklab_pool_threads", "gauge", "Threads started by an executor (profile pool, commonPool).");
        if (dispatcher.poolThreads() >= 0) line(b, "blocklab_pool_threads{pool=\"" + profile.name() + "\"}", dispatcher.poolThreads());
        line(b, "blocklab_pool_threads{pool=\"common\"}", common.getPoolSize());
        help(b, "blocklab_pool_parallelism", "gauge", "Target parallelism of ForkJoinPool.commonPool.");
        line(b, "blocklab_pool_parallelism{pool=\"common\"}", common.getParallelism());
        help(b, "blocklab_jvm_threads", "gauge", "Live platform threads of the JVM (ThreadMXBean), and the peak.");
        line(b, "blocklab_jvm_threads{kind=\"live\"}", threads.getThreadCount());
        line(b, "blocklab_jvm_threads{kind=\"daemon\"}", threads.getDaemonThreadCount());
        line(b, "blocklab_jvm_threads{kind=\"peak\"}", threads.getPeakThreadCount());
        metric(b, "blocklab_connections", "gauge", "Open client connections.", connections.get());
        help(b, "blocklab_event_loop_blocking_requests_total", "counter", "Requests whose handler blocked an event loop (profile event-loop with a blocking endpoint).");
        if (eventLoopBlocking.isEmpty()) line(b, "blocklab_event_loop_blocking_requests_total", 0);
        new TreeMap<>(eventLoopBlocking).forEach((endpoint, v) ->
                line(b, "blocklab_event_loop_blocking_requests_total{endpoint=\"" + endpoint + "\"}", v.sum()));
        help(b, "blocklab_event_loop_handler_seconds_total", "counter", "Time request handlers held event loops (profile event-loop).");
        b.append("blocklab_event_loop_handler_seconds_total ").append(String.format(Locale.ROOT, "%.6f", eventLoopHeldNanos.sum() / 1e9)).append('\n');
        metric(b, "blocklab_run_models", "gauge", "Long-lived models serving /run.", models);
        help(b, "blocklab_server_info", "gauge", "The server's profile, as a label.");
        line(b, "blocklab_server_info{profile=\"" + profile.name() + "\",admission=\"" + dispatcher.admission().label() + "\"}", 1);
        return b.toString();
    }

    private static void help(StringBuilder b, String name, String type, String help) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** A metric of one series, named like the metric: its help, its type and its value. */
    private static void metric(StringBuilder b, String name, String type, String help, long value) {
        help(b, name, type, help);
        line(b, name, value);
    }

    private static void line(StringBuilder b, String series, long value) {
        b.append(series).append(' ').append(value).append('\n');
    }
}
