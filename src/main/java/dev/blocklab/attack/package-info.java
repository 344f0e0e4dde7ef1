/**
 * The load generator behind {@code blocklab attack}: sends HTTP requests to real targets on an open schedule
 * (a {@link dev.blocklab.load.Pacer}: constant, linear ramp or steps) or from a closed group of users, and
 * measures each response. Latency counts from each request's <em>intended</em> send time, so a server that
 * stalls, or an attacker that falls behind, cannot hide the wait (no coordinated omission); service time counts
 * from the actual send. Both are HdrHistograms.
 *
 * <p>The pipeline, one small type per concept as in vegeta: {@link dev.blocklab.attack.Target} (what to send),
 * {@link dev.blocklab.attack.AttackSettings} (one record shared by the CLI and library callers),
 * {@link dev.blocklab.attack.Attack} (the engine: send loops with an injected clock, stepped on the HTTP
 * transport's event loops, a concurrent recorder), {@link dev.blocklab.result.AttackResult} (immutable), reports
 * ({@link dev.blocklab.report.AttackReportFormat}: vegeta's text layout, JSON, the HdrHistogram spectrum) and
 * {@link dev.blocklab.attack.Threshold}s that turn a result into an exit code.
 */
package dev.blocklab.attack;

import dev.blocklab.result.AttackResult;
import dev.blocklab.report.AttackReportFormat;
