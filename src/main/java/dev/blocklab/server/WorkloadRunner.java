package dev.blocklab.server;

import dev.blocklab.backend.Backend;
import dev.blocklab.model.Model;
import dev.blocklab.model.ModelContext;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.registry.Registry;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Workload;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /run/{workload}/{model}}: one request of a built-in workload under a model. Each (workload, model) pair
 * gets one long-lived model, created on first use and closed with the server; at most {@value #MAX_MODELS}
 * models exist at once, so a client cannot make the server start threads without bound.
 */
final class WorkloadRunner implements AutoCloseable {
    static final int MAX_MODELS = 16;

    /** Why a /run request cannot start: the HTTP status and a one-line reason. */
    static final class Rejected extends RuntimeException {
        final int status;

        Rejected(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    private final ModelContext context;
    private final long seed;
    private final long timeScaleDivisor;
    private final Map<String, Model> models = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean closed;

    private final java.util.List<Workload> extra;

    /** A call's timeout is at most this (real time; 0: no cap): the request's deadline. */
    private final long deadlineNanos;
    private final Map<String, dev.blocklab.workload.Graph> capped = new ConcurrentHashMap<>();

    /** @param extra workloads served beside the built-in ones (from files), found by name first */
    WorkloadRunner(Backend backend, long seed, long timeScaleDivisor, java.util.List<Workload> extra) {
        this(backend, seed, timeScaleDivisor, extra, 0);
    }

    /**
     * @param deadlineNanos the request deadline ({@code --request-timeout}, real time), or 0: every call's timeout,
     *                      and so the budget it sends to a backend over HTTP, is capped at it
     */
    WorkloadRunner(Backend backend, long seed, long timeScaleDivisor, java.util.List<Workload> extra, long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
        this.extra = java.util.List.copyOf(extra);
        this.context = new ModelContext(backend);
        this.seed = seed;
        this.timeScaleDivisor = timeScaleDivisor;
    }

    /**
     * Starts one request that arrived at {@code arrivedNanos} ({@link System#nanoTime}); the future completes with
     * its answer or failure.
     *
     * @throws Rejected 404 for an unknown workload, 400 for a malformed model, 503 when too many models exist
     */
    CompletableFuture<Object> submit(String workloadName, String modelSpec, long arrivedNanos) {
        Workload workload = extra.stream().filter(w -> w.name().equals(workloadName)).findFirst()
                .or(() -> BuiltInWorkloads.named(workloadName)).orElseThrow(() -> {
                    List<String> served = java.util.stream.Stream.concat(extra.stream(), BuiltInWorkloads.all().stream()).map(Workload::name).distinct().toList();
                    return new Rejected(404, "unknown workload '" + workloadName + "'" + dev.blocklab.Names.didYouMean(workloadName, served)
                            + " (served: " + String.join(", ", served) + ")");
                });
        ModelSpec spec;
        try {
            spec = Registry.parse(modelSpec).check(workload);
        } catch (IllegalArgumentException e) {
            throw new Rejected(400, e.getMessage());
        }
        String key = "/run/" + workload.name() + "/" + spec.text();
        Model model = models.get(key);
        if (model == null) {
            synchronized (models) {
                if (closed) throw new Rejected(503, "server closing");
                model = models.get(key);
                if (model == null) {
                    if (models.size() >= MAX_MODELS)
                        throw new Rejected(503, "at most " + MAX_MODELS + " (workload, model) pairs per server");
                    try {
                        model = spec.create(context);
                    } catch (UnsupportedOperationException e) {
                        throw new Rejected(400, e.getMessage());
                    }
                    models.put(key, model);
                }
            }
        }
        dev.blocklab.workload.Graph graph = deadlineNanos == 0 ? workload.graph()
                : capped.computeIfAbsent(workload.name(), n -> capTimeouts(workload.graph(), deadlineNanos * timeScaleDivisor));
        Request request = new Request(ids.incrementAndGet(), graph, seed, timeScaleDivisor);
        // the budget told to a backend over HTTP is what is left of the deadline when each call starts, counted from
        // the request's arrival as the server's 504 is: time it queued for a handler thread is spent too
        if (deadlineNanos > 0) request = request.withDeadlineAtNanos(arrivedNanos + deadlineNanos);
        return model.submit(request);
    }

    /**
     * The graph with every simulated call's timeout at most {@code maxNanos} (before the time scale): no call waits,
     * or asks the backend to work, past the request's deadline.
     */
    static dev.blocklab.workload.Graph capTimeouts(dev.blocklab.workload.Graph graph, long maxNanos) {
        java.util.List<dev.blocklab.workload.Step> steps = new java.util.ArrayList<>();
        for (dev.blocklab.workload.Step s : graph.steps()) {
            if (s instanceof dev.blocklab.workload.Step.Call c && c.operation() == null
                    && (c.timeoutNanos() == 0 || c.timeoutNanos() > maxNanos))
                s = c.withTimeoutNanos(maxNanos);
            steps.add(s);
        }
        return new dev.blocklab.workload.Graph(graph.input(), steps);
    }

    /** Models in use now (while closing: those not closed yet). */
    int models() { return models.size(); }

    /** The models not closed yet, by the path that serves each ({@code /run/profile-page/fixed:8}), sorted. */
    List<String> open() { return models.keySet().stream().sorted().toList(); }

    /**
     * Refuses new /run requests, then closes every model, each on a thread of its own, and returns once all are
     * closed: a model's close interrupts its threads and waits for them (up to 30 s), so closing them in turn would
     * leave the last ones running, not even interrupted, while the first is waited for. A model leaves
     * {@link #open()} when its close returns. The first failure is thrown, the others added to it.
     */
    @Override public void close() {
        List<Map.Entry<String, Model>> closing;
        synchronized (models) {
            closed = true;
            closing = List.copyOf(models.entrySet());
        }
        java.util.Queue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        List<Thread> closers = new java.util.ArrayList<>();
        for (var m : closing) {
            closers.add(Thread.ofPlatform().daemon().name("blocklab-close-model").start(() -> {
                try {
                    m.getValue().close();
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    models.remove(m.getKey());
                }
            }));
        }
        for (Thread closer : closers) {
            try {
                closer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();   // the caller stops waiting; the closers go on
                return;
            }
        }
        Throwable first = failures.poll();
        if (first == null) return;
        failures.forEach(first::addSuppressed);
        if (first instanceof RuntimeException r) throw r;
        if (first instanceof Error e) throw e;
        throw new IllegalStateException(first);
    }
}
