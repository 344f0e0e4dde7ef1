package dev.blocklab.frameworks;

import dev.blocklab.result.Outcome;
import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;

import java.util.concurrent.CompletableFuture;

/**
 * LMAX Disruptor 4 with the four calls in parallel. Two rings:
 * <ol>
 *   <li>{@code calls}: the request thread publishes the request; one handler ({@code disruptor-dispatch})
 *       starts the four non-blocking calls, and when the last completes the backend's thread publishes the four
 *       answers to the second ring;</li>
 *   <li>{@code merge}: two handlers in parallel ({@code disruptor-posts}: posts with comments;
 *       {@code disruptor-albums}: albums with photos), then {@code disruptor-reply} joins the texts and completes
 *       the response.</li>
 * </ol>
 * With {@code waits} the request thread waits for the response (the article's latch); without, it returns at
 * once (the article's suspended response). Blocking wait strategy: a spinning one would burn the cores the
 * merges need.
 *
 * <p>Events are reused slots: a handler copies what it needs before the slot can be claimed again, and the
 * reply handler clears it. Fields written by one handler are read by a later one through the ring's sequence
 * barriers (happens-before).
 */
final class DisruptorVariant implements Model {
    static final int RING_SIZE = 8192;
    /** Its handler threads: dispatch, the two merges and the reply; its calls hold none. */
    static final int THREADS = 4;

    private static final class MergeEvent extends RequestEvent {
        Object[] values;
        Throwable failure;
        String postsAndComments;
        String albumsAndPhotos;
        Throwable postsFailure;
        Throwable albumsFailure;
    }

    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final boolean waits;
    private final RequestThreads requests = new RequestThreads();
    private final RequestThreads.Named threads = RequestThreads.factory("disruptor");
    private final Disruptor<RequestEvent> calls;
    private final Disruptor<MergeEvent> merges;

    DisruptorVariant(Backend backend, FrameworksUseCase useCase, boolean waits) {
        this.backend = backend;
        this.useCase = useCase;
        this.waits = waits;
        merges = new Disruptor<>(MergeEvent::new, RING_SIZE, named("disruptor-posts", "disruptor-albums", "disruptor-reply"),
                ProducerType.MULTI, new BlockingWaitStrategy());
        EventHandler<MergeEvent> posts = (e, seq, end) -> e.postsFailure = mergeUnlessFailed(e,
                () -> e.postsAndComments = useCase.postsAndComments(e.request, e.values[0], e.values[1]));
        EventHandler<MergeEvent> albums = (e, seq, end) -> e.albumsFailure = mergeUnlessFailed(e,
                () -> e.albumsAndPhotos = useCase.albumsAndPhotos(e.request, e.values[2], e.values[3]));
        EventHandler<MergeEvent> reply = (e, seq, end) -> {
            Throwable failure = e.failure != null ? e.failure : e.postsFailure != null ? e.postsFailure : e.albumsFailure;
            if (failure != null) e.response.completeExceptionally(failure);
            else e.response.complete(FrameworksUseCase.answer(e.postsAndComments, e.albumsAndPhotos));
            e.request = null;
            e.response = null;
            e.values = null;
            e.failure = e.postsFailure = e.albumsFailure = null;
            e.postsAndComments = e.albumsAndPhotos = null;
        };
        merges.handleEventsWith(posts, albums).then(reply);

        calls = new Disruptor<>(RequestEvent::new, RING_SIZE, named("disruptor-dispatch"), ProducerType.MULTI, new BlockingWaitStrategy());
        calls.handleEventsWith((RequestEvent e, long seq, boolean end) -> {
            Request request = e.request;
            CompletableFuture<Object> response = e.response;
            e.request = null;
            e.response = null;
            dispatch(request, response);
        });
        merges.start();
        calls.start();
    }

    /** Runs one merge unless a call of the event failed; the merge's failure, or null. */
    private static Throwable mergeUnlessFailed(MergeEvent e, Runnable merge) {
        if (e.failure != null) return null;
        try {
            merge.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Thread names in the order the Disruptor asks for them (one per handler, in wiring order). */
    private java.util.concurrent.ThreadFactory named(String... names) {
        int[] next = {0};
        return r -> {
            Thread t = threads.newThread(r);
            t.setName(names[Math.min(next[0]++, names.length - 1)]);
            return t;
        };
    }

    @SuppressWarnings("unchecked")
    private void dispatch(Request request, CompletableFuture<Object> response) {
        CompletableFuture<Object>[] f = new CompletableFuture[4];
        for (int i = 0; i < 4; i++) f[i] = backend.callAsync(useCase.invocation(request, i));
        CompletableFuture.allOf(f).whenComplete((ignored, error) -> merges.publishEvent((e, seq) -> {
            e.request = request;
            e.response = response;
            if (error != null) {
                e.failure = Outcome.unwrap(error);
            } else {
                e.values = new Object[] {f[0].join(), f[1].join(), f[2].join(), f[3].join()};
            }
        }));
    }

    /** The merge ring hears of a request once {@code allOf} its four calls has ended: a failed call waits for its siblings. */
    @Override public boolean failsFast() { return false; }

    @Override public String name() { return waits ? "disruptor-latch" : "disruptor-async"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> RequestThreads.holdIf(waits, RequestEvent.publish(calls, request)));
    }

    /** What bounds a request beyond its critical path, for the prediction (the registry entry's too). */
    static final String HOW = "merges on two handler threads";

    @Override public Prediction predict(Demand d) { return FrameworksUseCase.overlapping(d, HOW); }

    @Override public void close() {
        requests.close();
        calls.halt();
        merges.halt();
        threads.joinAll();
    }
}
