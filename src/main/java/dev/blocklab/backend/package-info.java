/**
 * The downstream services a request calls. {@link dev.blocklab.backend.Backend} is the port: every call has a
 * blocking form, which holds the calling thread for the call's delay, and a non-blocking form, which returns a
 * future completed later and holds no thread while waiting. {@link dev.blocklab.backend.SimulatedBackend} is the
 * embedded default: sleeps and timers in this process, no sockets.
 *
 * <p>Over real sockets: {@link dev.blocklab.backend.BackendServer} ({@code blocklab backend}) is a
 * latency-simulating HTTP service whose answers are delayed by event-loop timers, configured per path by
 * {@link dev.blocklab.backend.Route}s, reporting the delays it delivered; {@link dev.blocklab.backend.HttpBackend}
 * implements the port against it, with a blocking socket client for blocking calls and the Vert.x asynchronous
 * client for non-blocking ones.
 */
package dev.blocklab.backend;
