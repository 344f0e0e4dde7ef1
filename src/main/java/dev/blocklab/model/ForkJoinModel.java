package dev.blocklab.model;

import dev.blocklab.backend.Backend;

import java.util.concurrent.ForkJoinPool;

/**
 * Blocking requests on a ForkJoinPool of N workers with plain blocking calls: the pool does not know its
 * workers are blocked, so it never adds threads (Scala's global execution context without {@code blocking}).
 */
final class ForkJoinModel extends PooledModel {
    ForkJoinModel(Backend backend, int parallelism) {
        super(backend, "forkjoin", parallelism, new ForkJoinPool(parallelism));
    }
}
