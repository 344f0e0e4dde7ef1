/**
 * The downstream services a request calls. {@link dev.blocklab.backend.Backend} is the port: every call has a
 * blocking form, which holds the calling thread for the call's delay, and a non-blocking form, which returns a
 * future completed later and holds no thread while waiting. {@link dev.blocklab.backend.SimulatedBackend} is the
 * embedded default: sleeps and timers in this process, no sockets.
 */
package dev.blocklab.backend;
