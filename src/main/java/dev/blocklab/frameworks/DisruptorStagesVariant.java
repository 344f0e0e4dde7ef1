package dev.blocklab.frameworks;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.EventHandlerGroup;
import com.lmax.disruptor.dsl.ProducerType;
import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.RequestTimes.Path;
import dev.blocklab.workload.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The original's Disruptor wiring, kept as a named variant: chained stages, so one request's four calls run
 * one after another (posts, then comments, then albums, then photos, then the merges, then the reply), each
 * stage {@value #WORKERS} handler threads making blocking calls ({@code sequence % WORKERS} picks the worker:
 * Disruptor 4 has no worker pools), 11 threads in all as in the article's table. The request thread waits.
 */
final class DisruptorStagesVariant implements Model {
    static final int WORKERS = 2;
    /** Its handler threads: {@value #WORKERS} a stage for the four calls and the merge, and one for the reply (11, the article's). */
    static final int THREADS = 5 * WORKERS + 1;

    private static final class Event extends RequestEvent {
        final Object[] values = new Object[4];
        Throwable failure;
        String answer;
    }

    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final RequestThreads requests = new RequestThreads();
    private final RequestThreads.Named threads = RequestThreads.factory("disruptor-stage");
    private final Disruptor<Event> disruptor;

    @SuppressWarnings("unchecked")
    DisruptorStagesVariant(Backend backend, FrameworksUseCase useCase) {
        this.backend = backend;
        this.useCase = useCase;
        disruptor = new Disruptor<>(Event::new, DisruptorVariant.RING_SIZE, threads, ProducerType.MULTI, new BlockingWaitStrategy());
        EventHandlerGroup<Event> group = null;
        for (int call = 0; call < 4; call++) {
            List<EventHandler<Event>> workers = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) workers.add(callWorker(call, w));
            EventHandler<Event>[] array = workers.toArray(new EventHandler[0]);
            group = group == null ? disruptor.handleEventsWith(array) : group.then(array);
        }
        List<EventHandler<Event>> mergers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            mergers.add((e, seq, end) -> {
                if (seq % WORKERS != worker || e.failure != null) return;
                try {
                    e.answer = FrameworksUseCase.answer(useCase.postsAndComments(e.request, e.values[0], e.values[1]),
                            useCase.albumsAndPhotos(e.request, e.values[2], e.values[3]));
                } catch (Throwable t) {
                    e.failure = t;
                }
            });
        }
        EventHandler<Event> reply = (e, seq, end) -> {
            if (e.failure != null) e.response.completeExceptionally(e.failure);
            else e.response.complete(e.answer);
            e.request = null;
            e.response = null;
            java.util.Arrays.fill(e.values, null);
            e.failure = null;
            e.answer = null;
        };
        EventHandler<Event>[] mergeArray = mergers.toArray(new EventHandler[0]);
        group.then(mergeArray).then(reply);
        disruptor.start();
    }

    private EventHandler<Event> callWorker(int call, int worker) {
        return (e, seq, end) -> {
            if (seq % WORKERS != worker || e.failure != null) return;
            try {
                e.values[call] = backend.callBlocking(useCase.invocation(e.request, call));
            } catch (Throwable t) {
                e.failure = t;
            }
        };
    }

    @Override public String name() { return "disruptor-stages"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> RequestThreads.holdIf(true, RequestEvent.publish(disruptor, request)));   // the request thread waits
    }

    @Override public Prediction predict(Demand d) {
        return formula(d);
    }

    /**
     * {@link #predict} without an instance: the registry entry's prediction. One request alone makes its calls one
     * after another. A stage has {@value #WORKERS} workers, each taking the sequences {@code % WORKERS} picks, and
     * passes the events it took from the ring in one batch to the next stage only once the whole batch is done (a
     * Disruptor handler publishes its sequence at the end of a batch): a batch of n crosses the four stages in
     * {@code ceil(n / WORKERS)} waves of one request's calls one after another, and under open load a request
     * leaves only with the batch it was taken in, once the backlog that arrived meanwhile has been taken
     * ({@link Prediction#requeues} 1).
     */
    static Prediction formula(Demand d) {
        return new Prediction(d.scheduleNanos(WORKERS, Path.SERIAL), d.scheduleText(String.valueOf(WORKERS), Path.SERIAL)
                + ": the four calls one after another, each stage " + WORKERS + " workers picked by sequence, passing a batch on "
                + "once it is done", Path.SERIAL, 1);
    }

    @Override public void close() {
        requests.close();
        disruptor.halt();
        threads.interruptAndJoinAll();   // stages blocked in calls (cancelled requests') end now, not when their calls do
    }
}
