/**
 * How a concurrency style runs requests. Each model is one package-private class behind
 * {@link dev.blocklab.model.Model}, registered in {@link dev.blocklab.model.Models} under a name that carries its
 * parameters ({@code fixed:8}, {@code forkjoin-managed:16}). The shared ways of walking a request's graph live
 * in {@code DirectStyle} (one thread, one step after another), {@code FutureStyle} (a chain of
 * {@link java.util.concurrent.CompletableFuture}s) and {@code Tasks} (interruptible submission), so a model
 * only says where its threads come from and how it waits.
 */
package dev.blocklab.model;
