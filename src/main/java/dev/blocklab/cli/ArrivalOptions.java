package dev.blocklab.cli;

import dev.blocklab.load.Rates;
import dev.blocklab.load.Pacer;
import dev.blocklab.workload.Arrival;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * How {@code run}'s requests arrive instead of the workload's own arrival, as one picocli mixin: a batch
 * ({@code --requests}), closed users or an open rate (constant, ramp or steps) for a duration; parsed into the
 * load core's {@link Arrival}.
 */
final class ArrivalOptions {
    @Option(names = "--requests", paramLabel = "N", description = "Send a batch of N requests at once (overrides the workload's arrival).")
    Integer requests;

    @Option(names = "--users", paramLabel = "N", description = "Closed loop: N users, each sending its next request when the last completes (for --duration, or the workload's own).")
    Integer users;

    @Option(names = "--rate", paramLabel = "RATE", description = "Open model: send RATE requests a second whatever happens (for --duration, or the workload's own), e.g. 500/s; "
            + "a ramp 100/s..5000/s over the duration, or steps 100/s,500/s,1000/s (each held for --step, or the duration shared equally). "
            + "Like every delay, the schedule is compressed by --time-scale N: N times the rate for 1/N of the duration, the same requests.")
    String rate;

    @Option(names = "--step", paramLabel = "D", description = "With steps in --rate: how long each rate is held (real time, divided by --time-scale), e.g. 5s; the last holds to the end.")
    String step;

    @Option(names = "--duration", paramLabel = "D", description = "Duration of a closed or open run, e.g. 10s (real time, divided by --time-scale); alone, it keeps the workload's users or constant rate.")
    String duration;

    /** The arrival the options ask for, or {@code fromWorkload} without any; one-line errors name the flags. */
    Arrival arrival(Arrival fromWorkload) {
        int chosen = (requests != null ? 1 : 0) + (users != null ? 1 : 0) + (rate != null ? 1 : 0);
        if (chosen > 1) throw new IllegalArgumentException("choose one of --requests, --users and --rate");
        if (step != null && (rate == null || !rate.contains(",")))
            throw new IllegalArgumentException("--step goes with steps such as --rate 100/s,500/s");
        if (requests != null) {
            if (duration != null) throw new IllegalArgumentException("--duration goes with --users or --rate, not --requests");
            return new Arrival.Batch(Flags.positive("--requests", requests));
        }
        long ownDuration = switch (fromWorkload) {   // the workload's own duration, which a lone --users or --rate keeps
            case Arrival.Closed c -> c.durationNanos();
            case Arrival.Open o -> o.durationNanos();
            case Arrival.Batch b -> 0;
        };
        if (users != null || rate != null) {
            if (duration == null && ownDuration == 0)
                throw new IllegalArgumentException((users != null ? "--users" : "--rate") + " needs --duration, e.g. --duration 10s");
            long d = duration != null ? Flags.duration("--duration", duration) : ownDuration;
            return users != null ? new Arrival.Closed(Flags.positive("--users", users), d)
                    : new Arrival.Open(Rates.parse(rate, d, step == null ? 0 : Flags.duration("--step", step)), d);
        }
        if (duration != null) {   // the workload's users or constant rate, for this long
            long d = Flags.duration("--duration", duration);
            return switch (fromWorkload) {
                case Arrival.Closed c -> new Arrival.Closed(c.users(), d);
                case Arrival.Open o when o.pacer() instanceof Pacer.Constant -> new Arrival.Open(o.pacer(), d);
                case Arrival.Open o -> throw new IllegalArgumentException(
                        "--duration alone: the workload's rate changes over its own duration; give --rate with it");
                case Arrival.Batch b -> throw new IllegalArgumentException(
                        "--duration needs --users or --rate (the workload's arrival is a batch)");
            };
        }
        return fromWorkload;
    }

    /** The fewest bytes a waiting request of a batch takes under any model but sequential: the request, its future, a queue's node. */
    static final long LEAST_BYTES_PER_WAITING_REQUEST = 150;
    /** What a waiting request takes with a thread of its own, at the least (a virtual thread and its frozen stack; docs/benchmarks.md). */
    static final long THREAD_BYTES_PER_WAITING_REQUEST = 1_100;

    /**
     * A batch keeps all its requests in flight at once (but under {@code sequential}, the caller's check): refuses one
     * that cannot fit in {@code maxHeapBytes}, at {@value #LEAST_BYTES_PER_WAITING_REQUEST} B a request under any
     * model and {@value #THREAD_BYTES_PER_WAITING_REQUEST} B under the {@code threadPerRequest} ones. Such a run would
     * spend minutes collecting garbage, then run out of memory.
     *
     * @param source           how the batch was asked for, for the message: {@code --requests 100000000} or the workload's name
     * @param threadPerRequest the models asked for that hold a thread per request in flight ({@link dev.blocklab.model.ModelSpec#threadPerRequest})
     */
    static void checkBatchFits(Arrival arrival, String source, long maxHeapBytes, List<String> threadPerRequest) {
        if (!(arrival instanceof Arrival.Batch(int n))) return;
        String heap = "this JVM's heap is at most " + gib(maxHeapBytes) + " (more: BLOCKLAB_JAVA_OPTS=-Xmx...)";
        if (n * LEAST_BYTES_PER_WAITING_REQUEST > maxHeapBytes)
            throw new IllegalArgumentException(source + ": a batch keeps every request in flight at once, at least "
                    + LEAST_BYTES_PER_WAITING_REQUEST + " B each under any model (" + gib(n * LEAST_BYTES_PER_WAITING_REQUEST)
                    + "), and " + heap + "; send fewer, or an open --rate or closed --users for a duration");
        if (!threadPerRequest.isEmpty() && n * THREAD_BYTES_PER_WAITING_REQUEST > maxHeapBytes)
            throw new IllegalArgumentException(source + ": a batch keeps every request in flight at once, and "
                    + String.join(", ", threadPerRequest) + " start" + (threadPerRequest.size() == 1 ? "s" : "")
                    + " a thread for each, at least " + THREAD_BYTES_PER_WAITING_REQUEST + " B a request ("
                    + gib(n * THREAD_BYTES_PER_WAITING_REQUEST) + "), and " + heap
                    + "; send fewer, run a pool model, or an open --rate or closed --users for a duration");
    }

    /**
     * Refuses a batch or closed users for which a model would start more platform threads at once than the
     * machine lets it (see {@link dev.blocklab.driver.ThreadLimit}): past that limit a thread's start fails, and
     * until the run ends no process on the machine can start one.
     */
    static void checkThreadsFit(Arrival arrival, String source, List<dev.blocklab.model.ModelSpec> specs,
                                java.util.Optional<dev.blocklab.driver.ThreadLimit> limit) {
        long inFlight = switch (arrival) {
            case Arrival.Batch(int n) -> n;
            case Arrival.Closed c -> c.users();
            case Arrival.Open o -> 0;   // how many are in flight depends on the model's latency: not known before
        };
        if (inFlight == 0 || limit.isEmpty()) return;
        List<String> over = specs.stream().filter(s -> s.platformThreadsAtMost(inFlight) > limit.get().spare())
                .map(s -> s.text() + " (" + String.format(java.util.Locale.ROOT, "%,d", s.platformThreadsAtMost(inFlight)) + ")").toList();
        if (over.isEmpty()) return;
        throw new IllegalArgumentException(source + ": " + String.join(", ", over) + " would start that many platform threads at once, and "
                + limit.get().text() + "; send fewer, run virtual, or a smaller pool");
    }

    private static String gib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
