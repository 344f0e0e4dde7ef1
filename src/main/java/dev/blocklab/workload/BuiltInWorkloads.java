package dev.blocklab.workload;

import java.util.List;
import java.util.Optional;

/** The workloads that ship with blocklab: the seeds' request graphs and one realistic mix. */
public final class BuiltInWorkloads {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    private BuiltInWorkloads() {}

    /** Seed 000: task1 (1 s, +1), then task2 (2 s, +2) and task3 (3 s, +3) on its result, task4 (1 s, +4) on their sum. */
    public static Workload taskGraph(boolean task4Fails) {
        Step.FailureSpec failure = new Step.FailureSpec(IllegalArgumentException.class.getName(), "This won't work!");
        List<Step> steps = List.of(
                call("task1", List.of(Graph.INPUT), S, 1, null),
                call("task2", List.of("task1"), 2 * S, 2, null),
                call("task3", List.of("task1"), 3 * S, 3, null),
                new Step.Combine("sum", List.of("task2", "task3"), new Value.Sum(0)),
                call("task4", List.of("sum"), S, 4, task4Fails ? failure : null));
        return new Workload(task4Fails ? "task-graph-failure" : "task-graph",
                "seed 000: four timed tasks, two in parallel; input 1 gives 13 after 5 s"
                        + (task4Fails ? "; task4 fails with IllegalArgumentException" : ""),
                new Graph(1L, steps), new Arrival.Batch(1));
    }

    /** Seed 003: one call of 1 s answering 99, 100 calls at once. */
    public static Workload hundredCalls() {
        return new Workload("hundred-calls", "seed 003: a blocking service call of 1 s answering 99; 100 calls at once",
                Graph.singleCall(Step.Call.fixed("service", S, 99L)), new Arrival.Batch(100));
    }

    /** Seed 004: a job of 100 ms, 10,000 at once. */
    public static Workload tenThousandJobs() {
        return new Workload("ten-thousand-jobs", "seed 004: a job sleeping 100 ms; 10,000 at once",
                Graph.singleCall(Step.Call.fixed("job", 100 * MS, 0L)), new Arrival.Batch(10_000));
    }

    /** Seed 001: user (200 ms), post count (500 ms) and follower count (300 ms), then a greeting. */
    public static Workload profilePage() {
        List<Step> steps = List.of(
                Step.Call.fixed("user", 200 * MS, "Anton"),
                Step.Call.fixed("posts", 500 * MS, 100L),
                Step.Call.fixed("followers", 300 * MS, 2000L),
                new Step.Combine("page", List.of("user", "posts", "followers"),
                        new Value.Format("Hello {user}, you have {posts} posts and {followers} followers!")));
        return new Workload("profile-page", "seed 001: three backend calls (200, 500, 300 ms) and a greeting",
                new Graph(0L, steps), new Arrival.Batch(1));
    }

    /** A service-like mix: two log-normal calls in parallel, a hash of 64 KiB, a dependent call that fails 1 %. */
    public static Workload mixed() {
        List<Step> steps = List.of(
                new Step.Call("profile", List.of(), new Latency.LogNormal(20 * MS, 120 * MS), new Value.Constant(7L), 0, null, 0),
                new Step.Call("orders", List.of(), new Latency.LogNormal(40 * MS, 250 * MS), new Value.Constant(35L), 0, null, 0),
                new Step.Cpu("render", List.of("profile", "orders"), Step.CpuKind.HASH, 64 * 1024),
                new Step.Call("audit", List.of("render"), new Latency.Uniform(5 * MS, 15 * MS), new Value.Sum(0), 0.01,
                        new Step.FailureSpec("java.io.IOException", "audit service unavailable"), 0));
        return new Workload("mixed", "two log-normal calls in parallel, a 64 KiB hash, a dependent call failing 1 %",
                new Graph(0L, steps), new Arrival.Batch(1000));
    }

    public static List<Workload> all() {
        return List.of(taskGraph(false), taskGraph(true), hundredCalls(), tenThousandJobs(), profilePage(), mixed());
    }

    public static Optional<Workload> named(String name) {
        return all().stream().filter(w -> w.name().equals(name)).findFirst();
    }

    private static Step.Call call(String name, List<String> inputs, long latencyNanos, long add, Step.FailureSpec failure) {
        return new Step.Call(name, inputs, new Latency.Fixed(latencyNanos), new Value.Sum(add),
                failure == null ? 0 : 1, failure, 0);
    }
}
