package dev.blocklab.recorder;

import dev.blocklab.backend.Backend;
import dev.blocklab.result.FailureScore;
import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Watches every call of a run on its way to the backend, and every request's end, to score how the model fails
 * ({@link FailureScore}): the time from a request's first failure to its end, the calls that had to stop and
 * whether they did, and the orphans (calls still running after their request ended) with the backend time they
 * wasted. A decorator of the {@link Backend} port: the model calls it as it would call the backend.
 *
 * <p>Threads: every method may be called from any thread. Per request it keeps one small record while the
 * request or one of its calls is alive, under that record's lock; figures are adders. The clock is injected.
 *
 * <p>A call "ends by cancellation" when its blocking form throws {@link InterruptedException} or its
 * non-blocking future is cancelled: the backend was told to stop. Anything else (an answer, a failure, a
 * timeout) means it ran to its own end. The failure of an attempt that another attempt may still rescue (a retry
 * before the last, a hedged attempt: {@link CallInvocation#rescuable()}) is not the request's first failure; a
 * request failed by a hedged call whose attempts all failed has no first failure to time from.
 */
public final class FailureMeter implements Backend {
    private final Backend backend;
    private final LongSupplier clock;
    private final Map<Long, Track> tracks = new ConcurrentHashMap<>();
    private final LongAdder failedRequests = new LongAdder();
    private final LongAdder failuresTimed = new LongAdder();
    private final LongAdder timeToFailNanos = new LongAdder();
    private final LongAccumulator maxTimeToFailNanos = new LongAccumulator(Math::max, 0);
    private final LongAdder requested = new LongAdder();
    private final LongAdder honoured = new LongAdder();
    private final LongAdder orphans = new LongAdder();
    private final LongAdder orphanNanos = new LongAdder();
    private final LongAdder inFlight = new LongAdder();
    /** Requests that ended failed, kept once their record is gone: a call one of them starts later is an orphan. */
    private final FailedIds failedIds = new FailedIds();

    public FailureMeter(Backend backend, LongSupplier clock) {
        this.backend = backend;
        this.clock = clock;
    }

    /** True when a run of this graph can fail, so watching it is worth its cost on every call. */
    public static boolean canFail(Graph graph, long requestTimeoutNanos) {
        if (requestTimeoutNanos > 0) return true;
        for (Step s : graph.steps())
            if (s instanceof Step.Call c && (c.failureProbability() > 0 || c.timeoutNanos() > 0 || c.operation() != null)) return true;
        return false;
    }

    @Override public String name() { return backend.name(); }

    @Override public Object callBlocking(CallInvocation call) throws Exception {
        Call c = started(call);
        try {
            Object value = backend.callBlocking(call);
            ended(call, c, false, false);
            return value;
        } catch (InterruptedException e) {
            ended(call, c, true, false);
            throw e;
        } catch (Exception e) {
            ended(call, c, false, true);
            throw e;
        }
    }

    @Override public CompletableFuture<Object> callAsync(CallInvocation call) {
        Call c = started(call);
        CompletableFuture<Object> source = backend.callAsync(call);
        // The model sees the call end only after it is counted: a model's failure handling (cancelling siblings,
        // ending the request) must find the failing call's failure already recorded.
        Watched watched = new Watched(source);
        source.whenComplete((v, e) -> {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            ended(call, c, cause instanceof CancellationException, cause != null && !(cause instanceof CancellationException));
            if (e != null) watched.completeExceptionally(e);
            else watched.complete(v);
        });
        return watched;
    }

    /** A call's future as the model sees it; cancelling it cancels the backend's (removing its timer). */
    private static final class Watched extends CompletableFuture<Object> {
        private final CompletableFuture<Object> source;

        Watched(CompletableFuture<Object> source) { this.source = source; }

        @Override public boolean cancel(boolean mayInterruptIfRunning) {
            source.cancel(mayInterruptIfRunning);   // counted as cancelled before this future completes
            super.cancel(mayInterruptIfRunning);
            return isCancelled();
        }
    }

    /**
     * Watches request {@code requestId}'s end: call once per request, with the future its model returned. Returns
     * the stage that completes, as the request did, once its end is recorded here: a caller that counts the request
     * done on that stage never scores the run before its last request is in the score (a dependent stage of the
     * request's own future may run first).
     */
    public <T> CompletableFuture<T> watch(long requestId, CompletableFuture<T> request) {
        return request.whenComplete((v, e) -> requestEnded(requestId, e != null));
    }

    private Call started(CallInvocation call) {
        inFlight.increment();
        Call c = new Call();
        Track t = tracks.computeIfAbsent(call.requestId(), id -> new Track());
        synchronized (t) {
            if (!t.ended && failedIds.contains(call.requestId())) t.ended = true;   // its record went with its last call
            t.calls.add(c);
            if (t.firstFailureNanos != 0 || t.ended) {   // started after the request was already doomed
                c.requested = true;
                requested.increment();
            }
            if (t.ended) {
                c.orphanSinceNanos = clock.getAsLong();
                orphans.increment();
            }
        }
        return c;
    }

    private void ended(CallInvocation call, Call c, boolean cancelled, boolean failed) {
        inFlight.decrement();
        long now = clock.getAsLong();
        Track t = tracks.get(call.requestId());
        if (t == null) return;
        synchronized (t) {
            t.calls.remove(c);
            if (c.orphanSinceNanos != 0) orphanNanos.add(now - c.orphanSinceNanos);
            if (c.requested && cancelled) honoured.increment();
            if (failed && !call.rescuable() && t.firstFailureNanos == 0) {   // a rescuable attempt's failure is not the request's
                t.firstFailureNanos = now;
                requestStops(t);
            }
            if (t.ended && t.calls.isEmpty()) tracks.remove(call.requestId(), t);
        }
    }

    private void requestEnded(long requestId, boolean failed) {
        long now = clock.getAsLong();
        Track t = tracks.computeIfAbsent(requestId, id -> new Track());
        synchronized (t) {
            t.ended = true;
            if (failed) {
                failedIds.add(requestId);
                failedRequests.increment();
                if (t.firstFailureNanos != 0) {
                    long ttf = now - t.firstFailureNanos;
                    failuresTimed.increment();
                    timeToFailNanos.add(ttf);
                    maxTimeToFailNanos.accumulate(ttf);
                }
            }
            requestStops(t);   // a call still running once its request ended must stop, failed or not (a hedge's loser)
            for (Call c : t.calls) {
                c.orphanSinceNanos = now;
                orphans.increment();
            }
            if (t.calls.isEmpty()) tracks.remove(requestId, t);
        }
    }

    /** Every call of the request still running must stop (caller holds the track's lock). */
    private void requestStops(Track t) {
        for (Call c : t.calls) {
            if (!c.requested) {
                c.requested = true;
                requested.increment();
            }
        }
    }

    /** Calls started through this meter and not yet ended. */
    public long callsInFlight() { return inFlight.sum(); }

    /** The score so far; {@code callsLeftRunning} is what the caller counted when the run's last request ended. */
    public FailureScore score(long callsLeftRunning) {
        long timed = failuresTimed.sum();
        long now = clock.getAsLong();
        long stillRunningNanos = 0;   // orphans not yet ended have wasted the time so far
        for (Track t : tracks.values()) {
            synchronized (t) {
                for (Call c : t.calls) if (c.orphanSinceNanos != 0) stillRunningNanos += now - c.orphanSinceNanos;
            }
        }
        return new FailureScore(true, failedRequests.sum(),
                timed == 0 ? 0 : timeToFailNanos.sum() / 1e6 / timed, maxTimeToFailNanos.get() / 1e6,
                requested.sum(), honoured.sum(), orphans.sum(), (orphanNanos.sum() + stillRunningNanos) / 1e6,
                callsLeftRunning);
    }

    /**
     * How long a run waits for its calls to end after its last request: a cancelled call needs a moment to be
     * scheduled and notice its interrupt, which on a loaded 2-core machine took over 100 ms (the former grace:
     * every call of a model that cancels was then scored as left running, its cancellation as not honoured). Only
     * a run with calls still in flight waits, and at most this.
     */
    public static final long QUIET_GRACE_NANOS = 1_000_000_000L;

    /**
     * Waits at most {@code graceNanos} for every call to end (a cancelled call needs a moment to be scheduled and
     * notice its interrupt), then returns the calls still in flight.
     */
    public long awaitQuiet(long graceNanos) {
        long deadline = System.nanoTime() + graceNanos;
        long n;
        while ((n = callsInFlight()) > 0 && System.nanoTime() < deadline) java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        return n;
    }

    @Override public long callsStarted() { return backend.callsStarted(); }

    @Override public java.util.List<dev.blocklab.result.PoolStats> poolStats() { return backend.poolStats(); }

    @Override public void close() { backend.close(); }

    /**
     * A set of request ids, one bit each in blocks of 65,536 made as ids reach them: a run numbers its requests
     * from 0, so a million failed requests take 128 KiB.
     */
    private static final class FailedIds {
        private static final int BLOCK_BITS = 16;
        private final Map<Long, AtomicLongArray> blocks = new ConcurrentHashMap<>();

        void add(long id) {
            AtomicLongArray block = blocks.computeIfAbsent(id >>> BLOCK_BITS, b -> new AtomicLongArray(1 << (BLOCK_BITS - 6)));
            int bit = (int) (id & ((1 << BLOCK_BITS) - 1));
            block.getAndUpdate(bit >>> 6, word -> word | 1L << (bit & 63));
        }

        boolean contains(long id) {
            AtomicLongArray block = blocks.get(id >>> BLOCK_BITS);
            int bit = (int) (id & ((1 << BLOCK_BITS) - 1));
            return block != null && (block.get(bit >>> 6) & 1L << (bit & 63)) != 0;
        }
    }

    /** One request while it or one of its calls is alive. */
    private static final class Track {
        final List<Call> calls = new ArrayList<>(4);
        long firstFailureNanos;   // 0: none yet
        boolean ended;
    }

    /** One call in flight. */
    private static final class Call {
        boolean requested;
        long orphanSinceNanos;   // 0: not an orphan
    }
}
