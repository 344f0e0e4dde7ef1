package dev.blocklab.workload;

import java.util.Objects;

/**
 * A named request graph with its arrival pattern.
 *
 * @param name        identifier used on the command line
 * @param description one line for {@code blocklab workloads}
 * @param graph       what one request does
 * @param arrival     how requests arrive (the command line may override it)
 */
public record Workload(String name, String description, Graph graph, Arrival arrival) {
    public Workload {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(arrival, "arrival");
    }

    public Workload withArrival(Arrival newArrival) {
        return new Workload(name, description, graph, newArrival);
    }
}
