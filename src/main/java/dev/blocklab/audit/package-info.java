/**
 * The misuse auditor ({@code --audit}): while a run is measured, an in-process JFR recording stream reports
 * where threads blocked (sleep, park, monitor enter and wait, socket and file reads and writes, pinned virtual
 * threads), and a watchdog samples the event loops and virtual-thread carriers for stalls that no JFR event
 * reports yet (a thread stuck in native code, or still stuck). Each observation is classified by the kind of
 * thread it happened on ({@link dev.blocklab.audit.ThreadKind}) into a {@link dev.blocklab.audit.Rule}, attributed
 * to the model or variant whose run was in progress, and aggregated into {@link dev.blocklab.audit.Finding}s with
 * the line that blocked.
 *
 * <p>Everything that decides (thread kinds, idle frames, rules, aggregation, stalls) is a pure function over
 * records ({@link dev.blocklab.audit.Blocking}, {@link dev.blocklab.audit.Frame}) and is tested without JFR;
 * {@link dev.blocklab.audit.Auditor} only feeds it. See docs/audit.md.
 */
package dev.blocklab.audit;
