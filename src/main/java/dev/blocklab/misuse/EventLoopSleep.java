package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;
import dev.blocklab.backend.Vertxes;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A handler on a Vert.x event loop that sleeps (wrong) or sets a timer (correct). */
final class EventLoopSleep extends Case {
    EventLoopSleep(boolean wrong) {
        super("vertx-event-loop-sleep", wrong, Rule.BLOCKING_ON_EVENT_LOOP,
                "a Vert.x handler calls Thread.sleep on its event loop",
                "a Vert.x handler waits with vertx.setTimer; the loop stays free");
    }

    @Override public void run(int requests, long blockNanos) throws Exception {
        Vertxes.init();
        Vertx vertx = Vertxes.create(new VertxOptions().setEventLoopPoolSize(1));
        try {
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                CompletableFuture<Void> answered = new CompletableFuture<>();
                done.add(answered);
                vertx.runOnContext(ignored -> {
                    if (wrong()) {
                        try {
                            line = Lines.here(); Thread.sleep(Duration.ofNanos(blockNanos));
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        answered.complete(null);
                    } else {
                        vertx.setTimer(Math.max(1, TimeUnit.NANOSECONDS.toMillis(blockNanos)), id -> answered.complete(null));
                    }
                });
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        } finally {
            Vertxes.awaitClose(vertx.close(), 10, "closing the showcase's Vert.x");
        }
    }
}
