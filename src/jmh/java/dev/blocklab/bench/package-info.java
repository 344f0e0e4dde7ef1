/**
 * JMH micro-benchmarks, built only with the Maven profile {@code jmh} into {@code target/benchmarks.jar}
 * (see docs/benchmarks.md). They cross-check single points of the lab's experiments with JMH's harness
 * (forks, warm-up, error bars), independently of the experiment code.
 */
package dev.blocklab.bench;
