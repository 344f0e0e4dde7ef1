/**
 * The load core shared by every driver: when requests are offered and the loop that offers them.
 * {@link dev.blocklab.load.Pacer} is an open-model schedule (constant, linear ramp, steps) as a pure function of
 * elapsed time; {@link dev.blocklab.load.Rates} is the one parser of rates ({@code 1000/s}, {@code 30/m},
 * {@code 100/s..5000/s}, {@code 100/s,500/s}); {@link dev.blocklab.load.SendLoop} waits for each due time on an
 * injected clock and sleeper and hands the request to a sender, so every scheduling decision is tested against a
 * fake clock without sleeping. The in-process driver and the HTTP attacker both send through it.
 */
package dev.blocklab.load;
