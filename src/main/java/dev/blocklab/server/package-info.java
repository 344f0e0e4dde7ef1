/**
 * The lab's HTTP server ({@code blocklab serve}), on Vert.x: the talk's three endpoints ({@code /sync-blocking},
 * {@code /async-blocking}, {@code /async-non-blocking}), any workload under any model
 * ({@code /run/{workload}/{model}}), {@code /health} and {@code /metrics} in Prometheus text. A
 * {@link dev.blocklab.server.ServerProfile} decides where handlers run (Play 2.5's fork-join dispatcher, a
 * servlet-style pool, a virtual thread per request, or the event loop itself); every profile is bounded, and a
 * request beyond the bound is answered 503 at once. {@link dev.blocklab.server.BlocklabServer} is the engine,
 * {@link dev.blocklab.server.ServerSettings} its options. {@link dev.blocklab.server.PekkoHttpServer} serves the
 * same three endpoints on Pekko HTTP (Play 3's server) with Pekko's default dispatcher, the real stack beside
 * the {@code play-2.5} emulation.
 */
package dev.blocklab.server;
