/**
 * What must be done: a {@link dev.blocklab.workload.Workload} is a small graph of steps (downstream calls,
 * CPU work, combines) that one request performs, and an {@link dev.blocklab.workload.Arrival} that says how
 * requests arrive. Everything here is immutable data plus pure functions; nothing here knows about threads.
 * {@link dev.blocklab.workload.Request} turns a graph into the exact calls one request makes, sampled
 * deterministically from a seed so that every model sees the same latencies and failures.
 */
package dev.blocklab.workload;
