package dev.blocklab.model;

import dev.blocklab.backend.Backend;

import java.util.Objects;

/**
 * What a model is built with.
 *
 * @param backend             the downstream service every call goes to
 * @param managedSpareThreads for {@code forkjoin-managed}: how many threads the pool may add beyond its
 *                            parallelism to compensate for blocked ones (Scala's global context allows 256)
 */
public record ModelContext(Backend backend, int managedSpareThreads) {
    public static final int DEFAULT_MANAGED_SPARE_THREADS = dev.blocklab.Defaults.SPARE_THREADS;

    public ModelContext {
        Objects.requireNonNull(backend, "backend");
        if (managedSpareThreads < 0) throw new IllegalArgumentException("spare threads must be >= 0");
    }

    public ModelContext(Backend backend) { this(backend, DEFAULT_MANAGED_SPARE_THREADS); }
}
