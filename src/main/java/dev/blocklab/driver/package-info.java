/**
 * What sends requests to a model and measures them. {@link dev.blocklab.driver.InProcessDriver} runs a
 * workload's arrival (batch, closed loop, open rate) against a model in this process, with warm-ups and
 * repeats. {@link dev.blocklab.driver.Pacer} is the open-model schedule: a pure function of elapsed time, so
 * every schedule is tested without sleeping.
 */
package dev.blocklab.driver;
