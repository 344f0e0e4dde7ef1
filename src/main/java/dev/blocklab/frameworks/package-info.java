/**
 * Seed 002's frameworks comparison: one use case (four downstream JSON calls, a merge with real CPU work,
 * {@link dev.blocklab.frameworks.FrameworksUseCase}) run under ExecutorService, CompletableFuture, RxJava 3,
 * Project Reactor, Vert.x's event loop, LMAX Disruptor 4, Apache Pekko typed actors, virtual threads and
 * structured concurrency ({@link dev.blocklab.frameworks.FrameworkVariants}). Every variant is a
 * {@link dev.blocklab.model.Model} over the engine's {@link dev.blocklab.backend.Backend} port, so it runs against
 * the simulated backend in process or against a real HTTP backend unchanged (a backend server serving
 * {@link dev.blocklab.frameworks.FrameworksUseCase#routes}); every variant makes the same four calls per request
 * and returns the same answer, byte for byte. Variants that need a server's request thread use a modelled Tomcat
 * pool of 200 platform threads; the event-loop variant has none. The {@code jaxrs-*} variants
 * ({@link dev.blocklab.frameworks.FrameworkVariants#servlet}) run the same code as JAX-RS resources in an embedded
 * Tomcat with Jersey, the article's own stack, and are called over HTTP on 127.0.0.1.
 */
package dev.blocklab.frameworks;
