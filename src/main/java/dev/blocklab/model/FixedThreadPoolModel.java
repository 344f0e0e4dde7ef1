package dev.blocklab.model;

import dev.blocklab.backend.Backend;

import java.util.concurrent.Executors;

/** Blocking requests on a fixed pool of platform threads; requests beyond the pool size wait in its queue. */
final class FixedThreadPoolModel extends PooledModel {
    FixedThreadPoolModel(Backend backend, int threads) {
        super(backend, "fixed", threads, Executors.newFixedThreadPool(threads, Tasks.named("fixed")));
    }
}
