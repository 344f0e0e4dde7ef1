/**
 * What sends requests to a model and measures them. {@link dev.blocklab.driver.InProcessDriver} runs a
 * workload's arrival (batch, closed loop, open rate) against a model in this process, with warm-ups and
 * repeats; its open schedule is a {@link dev.blocklab.load.Pacer} sent by the load core's
 * {@link dev.blocklab.load.SendLoop}.
 */
package dev.blocklab.driver;
