package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;

/** A blocking call subscribed on Reactor's {@code parallel} scheduler (wrong) or on {@code boundedElastic} (correct). */
final class ReactorParallel extends Case {
    ReactorParallel(boolean wrong) {
        super("reactor-parallel-blocking", wrong, Rule.BLOCKING_ON_EVENT_LOOP,
                "Mono.fromCallable(blocking call).subscribeOn(Schedulers.parallel()): blocks a non-blocking worker",
                "Mono.fromCallable(blocking call).subscribeOn(Schedulers.boundedElastic()), the scheduler meant for it");
    }

    @Override public void run(int requests, long blockNanos) {
        Flux.range(0, requests)
                .flatMap(i -> wrong()
                        ? Mono.fromCallable(() -> { line = Lines.here(); Thread.sleep(Duration.ofNanos(blockNanos)); return i; }).subscribeOn(Schedulers.parallel())
                        : Mono.fromCallable(() -> { sleep(blockNanos); return i; }).subscribeOn(Schedulers.boundedElastic()))
                .blockLast(Duration.ofSeconds(60));
    }
}
