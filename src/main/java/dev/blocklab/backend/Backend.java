package dev.blocklab.backend;

import dev.blocklab.workload.CallInvocation;
import dev.blocklab.workload.Request;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A downstream service. Implementations are thread-safe: any thread may call either form at any time.
 * A call's timing and outcome are fixed by its {@link CallInvocation}; the backend only delivers them.
 */
public interface Backend extends AutoCloseable {

    /** A short name for reports, such as {@code simulated}. */
    String name();

    /**
     * Holds the calling thread until the call completes, then returns its value or throws its failure (a
     * {@link java.util.concurrent.TimeoutException} when the call's timeout comes first). Interruptible:
     * an interrupted caller gets {@link InterruptedException} at once.
     */
    Object callBlocking(CallInvocation call) throws Exception;

    /**
     * The first attempt of call step {@code step} of {@code request} with these inputs, as
     * {@link #callBlocking(CallInvocation)} of {@link Request#invocation(int, List)}: a backend may serve a call that
     * draws nothing without building its invocation.
     */
    default Object callBlocking(Request request, int step, List<Object> inputs) throws Exception {
        return callBlocking(request.invocation(step, inputs));
    }

    /**
     * Returns at once. The future completes after the call's delay, on a thread of the backend's own (so
     * dependent stages should use an {@code *Async} method with their own executor), holding no thread while
     * waiting. Cancelling the future cancels the pending completion.
     */
    CompletableFuture<Object> callAsync(CallInvocation call);

    /** Calls started so far, both forms. */
    long callsStarted();

    /**
     * What each connection pool of this backend did so far (a real server's clients, those used), in a stable
     * order; none for a backend without pools, the default.
     */
    default List<dev.blocklab.result.PoolStats> poolStats() { return List.of(); }

    /** Releases timers and connections. */
    @Override void close();
}
