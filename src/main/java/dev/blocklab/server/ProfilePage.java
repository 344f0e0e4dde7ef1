package dev.blocklab.server;

import dev.blocklab.backend.Backend;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Request;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * The talk's three endpoints (seed 001): a profile page built from three backend calls, user (200 ms, "Anton"),
 * post count (500 ms, 100) and follower count (300 ms, 2000), as defined by
 * {@link BuiltInWorkloads#profilePage()}, written in the three styles of the talk.
 *
 * <p>Thread-safe and stateless apart from the backend.
 */
final class ProfilePage {
    private final Backend backend;
    private final Graph graph = BuiltInWorkloads.profilePage().graph();
    private final int user = graph.indexOf("user");
    private final int posts = graph.indexOf("posts");
    private final int followers = graph.indexOf("followers");
    private final int page = graph.indexOf("page");
    private final long seed;
    private final long timeScaleDivisor;
    private final Set<CompletableFuture<Object>> queuedBlockingCalls = ConcurrentHashMap.newKeySet();
    /** Sheds async-blocking calls that waited too long for a common-pool thread; null: never. */
    private final QueueDelayShedder commonPoolShedder;

    /** An async-blocking call shed because it waited too long in an overloaded common pool: answered 503. */
    static final class Shed extends RuntimeException {
        Shed(String message) { super(message, null, false, false); }
    }

    ProfilePage(Backend backend, long seed, long timeScaleDivisor, boolean shedByQueueDelay) {
        this.backend = backend;
        this.seed = seed;
        this.timeScaleDivisor = timeScaleDivisor;
        this.commonPoolShedder = shedByQueueDelay ? QueueDelayShedder.withDefaults(System.nanoTime()) : null;
    }

    /** Sync blocking: the three calls one after another on the calling thread (about 1 s). */
    String syncBlocking(long requestId) throws Exception {
        Request r = request(requestId);
        Object name = backend.callBlocking(call(r, user));
        Object postCount = backend.callBlocking(call(r, posts));
        Object followerCount = backend.callBlocking(call(r, followers));
        return hello(r, name, postCount, followerCount);
    }

    /**
     * Async blocking: each blocking call wrapped in {@code supplyAsync} with no executor, so it holds a thread
     * of {@link ForkJoinPool#commonPool()} (cores - 1 threads) for its whole delay; composed with
     * {@code thenComposeAsync}, the last stage on {@code last} (Play's dispatcher).
     */
    CompletionStage<String> asyncBlocking(long requestId, Executor last) {
        Request r = request(requestId);
        Queued queued = new Queued(System.nanoTime());
        CompletionStage<Object> name = tracked(CompletableFuture.supplyAsync(() -> blocking(call(r, user), queued)));
        CompletionStage<Object> postCount = tracked(CompletableFuture.supplyAsync(() -> blocking(call(r, posts), queued)));
        CompletionStage<Object> followerCount = tracked(CompletableFuture.supplyAsync(() -> blocking(call(r, followers), queued)));
        return compose(r, name, postCount, followerCount, last);
    }

    /**
     * Cancels the async-blocking calls still queued in the common pool, so they become no-ops when a worker takes
     * them (a call already sleeping finishes its sleep). Called when the server closes: the common pool belongs to
     * the JVM and would otherwise keep serving a closed server's backlog, starving whatever runs next.
     */
    void cancelQueuedBlockingCalls() {
        for (CompletableFuture<Object> f : queuedBlockingCalls) f.cancel(false);
    }

    private CompletableFuture<Object> tracked(CompletableFuture<Object> call) {
        queuedBlockingCalls.add(call);
        call.whenComplete((v, e) -> queuedBlockingCalls.remove(call));
        return call;
    }

    /**
     * Async non-blocking: each call a future completed by the backend's timer or socket, holding no thread while
     * it waits (about 500 ms, the longest call); composed as {@link #asyncBlocking}.
     */
    CompletionStage<String> asyncNonBlocking(long requestId, Executor last) {
        Request r = request(requestId);
        return compose(r, backend.callAsync(call(r, user)), backend.callAsync(call(r, posts)),
                backend.callAsync(call(r, followers)), last);
    }

    private CompletionStage<String> compose(Request r, CompletionStage<Object> name, CompletionStage<Object> postCount,
                                            CompletionStage<Object> followerCount, Executor last) {
        CompletableFuture<String> result = name.thenComposeAsync(n ->
                postCount.thenComposeAsync(p ->
                        followerCount.thenApplyAsync(f -> hello(r, n, p, f))))
                .thenApplyAsync(body -> body, last).toCompletableFuture();
        // a failed call fails the request at once; a failed or cancelled request (its client left) stops its
        // other calls: queued ones become no-ops, pending asynchronous ones are cancelled
        List<CompletableFuture<Object>> calls = List.of(name.toCompletableFuture(), postCount.toCompletableFuture(),
                followerCount.toCompletableFuture());
        for (CompletableFuture<Object> c : calls)
            c.whenComplete((v, e) -> { if (e != null) result.completeExceptionally(e); });
        result.whenComplete((v, e) -> { if (e != null) calls.forEach(c -> c.cancel(false)); });
        return result;
    }

    private Request request(long requestId) { return new Request(requestId, graph, seed, timeScaleDivisor); }

    private static CallInvocation call(Request r, int step) { return r.invocation(step, List.of()); }

    private String hello(Request r, Object name, Object postCount, Object followerCount) {
        return (String) r.compute(page, List.of(name, postCount, followerCount));
    }

    /**
     * When a request's calls were queued. The request's queueing delay is how long its first call waited for a
     * thread; its later calls wait behind its own first one, which is service, not queueing.
     */
    private static final class Queued {
        final long sinceNanos;
        final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();

        Queued(long sinceNanos) { this.sinceNanos = sinceNanos; }
    }

    private Object blocking(CallInvocation call, Queued queued) {
        if (commonPoolShedder != null && queued.started.compareAndSet(false, true)) {
            long now = System.nanoTime();
            if (commonPoolShedder.shed(now - queued.sinceNanos, now))
                throw new Shed("queueing delay in ForkJoinPool.commonPool over target");
        }
        try {
            return backend.callBlocking(call);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new CompletionException(e);
        }
    }
}
