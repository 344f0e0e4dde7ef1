package dev.blocklab.frameworks;

import dev.blocklab.result.Outcome;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.blocklab.backend.Backend;
import dev.blocklab.model.Demand;
import dev.blocklab.model.Model;
import dev.blocklab.model.Prediction;
import dev.blocklab.workload.Request;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Apache Pekko typed actors. Each request is asked of a master actor, which spawns a per-request actor; that
 * actor starts the four non-blocking calls, receives their answers as messages ({@code pipeToSelf}), merges on
 * the actor dispatcher when the fourth arrives, replies and stops. With {@code waits} the request thread
 * waits for the reply (the article's latch); without, the ask's future is the response (suspended).
 * Unlike the original, no actor blocks: blocking calls on the default dispatcher would starve it.
 */
final class PekkoVariant implements Model {
    private static final AtomicInteger SYSTEMS = new AtomicInteger();
    private static final Duration ASK_TIMEOUT = Duration.ofMinutes(5);

    private sealed interface Command {}
    private record Fetch(Request request, ActorRef<Reply> replyTo) implements Command {}
    private record Arrived(int call, Object value, Throwable failure) implements Command {}
    private record Reply(String answer, Throwable failure) {}

    private final Backend backend;
    private final FrameworksUseCase useCase;
    private final boolean waits;
    private final RequestThreads requests = new RequestThreads();
    private final ActorSystem<Command> system;

    PekkoVariant(Backend backend, FrameworksUseCase useCase, boolean waits) {
        this.backend = backend;
        this.useCase = useCase;
        this.waits = waits;
        this.system = ActorSystem.create(master(), "frameworks-" + SYSTEMS.incrementAndGet(), config());
    }

    static Config config() {
        return ConfigFactory.parseString("""
                pekko.loglevel = "ERROR"
                pekko.stdout-loglevel = "OFF"
                pekko.log-dead-letters = off
                pekko.log-dead-letters-during-shutdown = off
                pekko.jvm-shutdown-hooks = off
                pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
                pekko.daemonic = on
                """).withFallback(ConfigFactory.load());
    }

    private Behavior<Command> master() {
        return Behaviors.setup(context -> Behaviors.receive(Command.class)
                .onMessage(Fetch.class, f -> {
                    context.spawnAnonymous(perRequest(f));
                    return Behaviors.same();
                })
                .build());
    }

    /** Starts the four calls, collects their answers as messages, merges, replies, stops. */
    private Behavior<Command> perRequest(Fetch fetch) {
        return Behaviors.setup(context -> {
            for (int i = 0; i < 4; i++) {
                int call = i;
                context.pipeToSelf(backend.callAsync(useCase.invocation(fetch.request(), call)),
                        (value, error) -> new Arrived(call, value, unwrap(error)));
            }
            Object[] values = new Object[4];
            int[] arrived = {0};
            return Behaviors.receive(Command.class)
                    .onMessage(Arrived.class, a -> {
                        if (a.failure() != null) {
                            fetch.replyTo().tell(new Reply(null, a.failure()));
                            return Behaviors.stopped();
                        }
                        values[a.call()] = a.value();
                        if (++arrived[0] < 4) return Behaviors.same();
                        Reply reply;
                        try {
                            reply = new Reply(FrameworksUseCase.answer(
                                    useCase.postsAndComments(fetch.request(), values[0], values[1]),
                                    useCase.albumsAndPhotos(fetch.request(), values[2], values[3])), null);
                        } catch (RuntimeException e) {
                            reply = new Reply(null, e);
                        }
                        fetch.replyTo().tell(reply);
                        return Behaviors.stopped();
                    })
                    .build();
        });
    }

    private static Throwable unwrap(Throwable error) { return Outcome.unwrap(error); }

    @Override public String name() { return waits ? "pekko-blocking" : "pekko-async"; }

    @Override public CompletableFuture<Object> submit(Request request) {
        return requests.handle(() -> {
            CompletableFuture<Object> response = AskPattern.<Command, Reply>ask(system, replyTo -> new Fetch(request, replyTo),
                            ASK_TIMEOUT, system.scheduler())
                    .toCompletableFuture()
                    .thenCompose(r -> r.failure() == null ? CompletableFuture.completedFuture((Object) r.answer())
                            : CompletableFuture.failedFuture(r.failure()));
            return RequestThreads.holdIf(waits, response);
        });
    }

    /** What bounds a request beyond its critical path, for the prediction (the registry entry's too). */
    static final String HOW = "merges on the actor dispatcher";

    @Override public Prediction predict(Demand d) { return FrameworksUseCase.overlapping(d, HOW); }

    @Override public void close() {
        requests.close();
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the actor system did not terminate: " + e, e);
        }
    }
}
