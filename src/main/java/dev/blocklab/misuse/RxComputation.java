package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.schedulers.Schedulers;

import java.time.Duration;

/** A blocking call subscribed on RxJava's {@code computation} scheduler (wrong) or on {@code io} (correct). */
final class RxComputation extends Case {
    RxComputation(boolean wrong) {
        super("rx-computation-blocking", wrong, Rule.BLOCKING_ON_EVENT_LOOP,
                "Single.fromCallable(blocking call).subscribeOn(Schedulers.computation()): blocks a CPU worker",
                "Single.fromCallable(blocking call).subscribeOn(Schedulers.io()), the scheduler meant for it");
    }

    @Override public void run(int requests, long blockNanos) {
        Flowable.range(0, requests)
                .flatMapSingle(i -> wrong()
                        ? Single.fromCallable(() -> { line = Lines.here(); Thread.sleep(Duration.ofNanos(blockNanos)); return i; }).subscribeOn(Schedulers.computation())
                        : Single.fromCallable(() -> { sleep(blockNanos); return i; }).subscribeOn(Schedulers.io()))
                .blockingLast();
    }
}
