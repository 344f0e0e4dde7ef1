/**
 * How a concurrency style runs requests. Each model is one package-private class behind
 * {@link dev.blocklab.model.Model}, listed in {@link dev.blocklab.model.Models} as a
 * {@link dev.blocklab.model.ModelEntry} under a name that carries its parameters ({@code fixed:8},
 * {@code forkjoin-managed:16}), parsed once into a {@link dev.blocklab.model.ModelSpec}; the registry of everything
 * that runs a workload ({@code dev.blocklab.registry}) adds seed 002's framework variants. The shared ways of walking a request's graph live
 * in {@code DirectStyle} (one thread, one step after another), {@code FutureStyle} (a chain of
 * {@link java.util.concurrent.CompletableFuture}s) and {@code Tasks} (interruptible submission), so a model
 * only says where its threads come from and how it waits.
 */
package dev.blocklab.model;
