/**
 * Capacity at a service-level objective: for one workload and a set of entries (concurrency models, framework
 * variants, server profiles over HTTP), the highest open-loop rate each sustains while meeting every
 * {@link dev.blocklab.capacity.Slo} (e.g. {@code p99<=550ms}, {@code success>=99.9%}), the knee curve that
 * leads there, the cost per request at that rate, and a ranked recommendation with the reason each entry stops.
 *
 * <p>The search ({@link dev.blocklab.capacity.CapacitySearch}) is pure logic over a measuring function, reusing
 * {@link dev.blocklab.experiment.RateSearch}: rates grow until the objective breaks, then the gap is bisected;
 * each point is measured several times and judged on the median, and a point where the load generator itself
 * was the limit ends the search as "at least", never as the entry's capacity. {@link dev.blocklab.capacity.Entries}
 * is the one adapter over the model and variant registries.
 */
package dev.blocklab.capacity;
