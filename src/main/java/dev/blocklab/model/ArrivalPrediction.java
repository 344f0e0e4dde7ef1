package dev.blocklab.model;

import dev.blocklab.load.Rates;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Durations;
import dev.blocklab.workload.RequestTimes;

import java.util.Locale;

/**
 * What theory says for a stream of requests (open or closed arrivals), given a model's prediction for one
 * request alone and its capacity. The predicted figure is the mean latency, compared with the measured mean
 * latency; the text also gives throughput, requests in flight by Little's law and latency percentiles.
 *
 * <ul>
 *   <li>open at rate {@code r} below capacity {@code C}: throughput {@code r}, mean latency one request's time
 *       {@code R}, in flight {@code r x R}; when the schedule's rate goes above capacity the backlog grows at
 *       {@code r - C} and drains at {@code C}, so each request waits for the backlog ahead of it divided by
 *       {@code C}. The wait is integrated over the schedule's own arrival times (a constant rate, a ramp or
 *       steps) on {@code N = C x R} servers each holding a request {@code N / C}; for a constant rate over a run
 *       of length {@code D} the mean is close to {@code R + D x (r / C - 1) / 2}, and the throughput is {@code C}.
 *       A model whose request's remaining work queues again once its calls have ended ({@link Prediction#requeues}:
 *       merge tasks queued on the calls' own first-come pool, a Disruptor stage passing on a batch only once it is
 *       done) lets a request out only once the calls of every request that arrived before have started, so under a
 *       burst above capacity the backlog leaves nearly together, at the end of the burst's calls.</li>
 *   <li>closed with {@code U} users and no think time: throughput {@code min(U / R, C)}, mean latency
 *       {@code U / throughput} (Little's law with every user always in flight).</li>
 * </ul>
 *
 * <p>Pure: no clock, no threads.
 */
public final class ArrivalPrediction {
    private ArrivalPrediction() {}

    /**
     * The model's capacity in requests per second: {@code n} requests over the time its own batch formula gives
     * them ({@code batch} is its prediction for a batch of {@code n}).
     */
    public static double capacityPerSecond(long n, Prediction batch) {
        return batch.nanos() <= 0 ? Double.POSITIVE_INFINITY : n * 1e9 / batch.nanos();   // no time: no limit it can name
    }

    /**
     * @param one               the model's prediction for one request alone (its mean with random latencies)
     * @param capacityPerSecond the model's capacity, see {@link #capacityPerSecond}
     * @param arrival           an open or closed arrival
     * @param timeScaleDivisor  delays and the schedule were divided by this: an open rate is multiplied by it
     * @param drawn             a sample of the stream's drawn times, or null for fixed latencies
     * @param cpuNanosPerRequest CPU work of one request, added to each percentile
     */
    public static Prediction of(Prediction one, double capacityPerSecond, Arrival arrival, long timeScaleDivisor,
                                RequestTimes drawn, long cpuNanosPerRequest) {
        long r = one.nanos();
        if (r <= 0)   // nothing declared to take time (a real server's step without a latency): no rate to derive
            return new Prediction(0, arrival.label() + ": one request is predicted to take no time (" + one.basis()
                    + "), so the formula gives no capacity, latency or throughput", one.path());
        String percentiles = percentiles(one, drawn, cpuNanosPerRequest);
        return switch (arrival) {
            case Arrival.Open o -> {
                double rate = (o.pacer() instanceof dev.blocklab.load.Pacer.Constant c ? c.ratePerSecond() : o.requests() * 1e9 / o.durationNanos()) * timeScaleDivisor;
                double durationSeconds = o.durationNanos() / (double) timeScaleDivisor / 1e9;
                double peak = o.peakRatePerSecond() * timeScaleDivisor;
                if (peak <= capacityPerSecond) {
                    yield new Prediction(r, String.format(Locale.ROOT,
                            "open %s/s%s within the capacity %s/s: mean latency %s (one request alone: %s); throughput %s/s; in flight %s/s x %s = %s (Little)%s",
                            Rates.number(rate), scaled(timeScaleDivisor), Rates.number(capacityPerSecond), Durations.format(r), one.basis(), Rates.number(rate), Rates.number(rate),
                            Durations.format(r), inFlight(rate * r / 1e9), percentiles), one.path());
                }
                Queue q = queue(o, timeScaleDivisor, capacityPerSecond, r, one.requeues());
                long mean = r + q.meanWaitNanos();
                // the continuous form is that of a queue whose requests leave in the order it served them
                String continuous = o.pacer() instanceof dev.blocklab.load.Pacer.Constant && one.requeues() == 0
                        ? String.format(Locale.ROOT, " (the continuous form %s x (%s / %s - 1) / 2 = %s)", Durations.format(Math.round(durationSeconds * 1e9)),
                                Rates.number(rate), Rates.number(capacityPerSecond), Durations.format(Math.round(durationSeconds * (rate / capacityPerSecond - 1) / 2 * 1e9)))
                        : "";
                String rateText = o.pacer() instanceof dev.blocklab.load.Pacer.Constant ? Rates.number(rate) + "/s"
                        : Rates.number(rate) + "/s on average (" + Rates.number(peak) + "/s at its peak)";
                yield new Prediction(mean, String.format(Locale.ROOT,
                        "open %s%s above the capacity %s/s: while arrivals outpace it the backlog grows by their excess and drains at %s/s, so each "
                                + "request waits for the backlog ahead of it / %s/s%s; over the schedule's %d arrivals (%d servers each holding a request %s: "
                                + "the capacity x one request's time, rounded, and that count / the capacity) "
                                + "the mean wait is %s%s; mean latency %s + %s = %s; throughput %s/s",
                        rateText, scaled(timeScaleDivisor), Rates.number(capacityPerSecond), Rates.number(capacityPerSecond), Rates.number(capacityPerSecond),
                        one.requeues() == 0 ? "" : behindBacklog(one.requeues()), o.requests(),
                        q.servers(), Durations.format(q.holdNanos()), Durations.format(q.meanWaitNanos()), continuous, Durations.format(r),
                        Durations.format(q.meanWaitNanos()), Durations.format(mean), Rates.number(capacityPerSecond)), one.path());
            }
            case Arrival.Closed c -> {
                double alone = c.users() * 1e9 / Math.max(1, r);
                double throughput = Math.min(alone, capacityPerSecond);
                long mean = Math.round(c.users() * 1e9 / throughput);
                String bound = alone <= capacityPerSecond ? c.users() + " / " + Durations.format(r)
                        : "the capacity (" + c.users() + " / " + Durations.format(r) + " = " + Rates.number(alone) + "/s is more)";
                yield new Prediction(mean, String.format(Locale.ROOT,
                        "closed %d users, no think time: throughput %s = %s/s; mean latency %d / %s/s = %s (one request alone: %s)%s",
                        c.users(), bound, Rates.number(throughput), c.users(), Rates.number(throughput), Durations.format(mean), one.basis(),
                        alone <= capacityPerSecond ? percentiles : ""), one.path());
            }
            case Arrival.Batch b -> throw new IllegalArgumentException("a batch's prediction is the model's own: " + b.label());
        };
    }

    /** How the open queue's text says a request whose work queues again after its calls leaves. */
    static String behindBacklog(int requeues) {
        return ", and once its calls have ended its remaining work queues again" + (requeues == 1 ? "" : ", " + requeues + " times in turn,")
                + " behind the calls of every request that arrived by then, so it leaves once those have started";
    }

    /** Arrivals simulated at most; a longer schedule is thinned (every m-th arrival against a capacity / m). */
    static final int SIMULATED_ARRIVALS = 1_000_000;

    /** The queue's figures: servers, how long each holds a request, the mean wait before a server takes it. */
    record Queue(long servers, long holdNanos, long meanWaitNanos) {}

    /**
     * The mean wait in a first-come queue fed by the schedule's arrivals (at the run's compressed times) and
     * served by {@code N = round(C x R)} servers each holding a request {@code N / C}, so the throughput is
     * exactly {@code C}: request {@code k} starts at {@code max(arrival k, start of k - N + hold)} and leaves at
     * {@code L = its start + R}; each of its {@code requeues} then moves {@code L} to {@code max(L, the start of the
     * last request that arrived by L)}. It waits {@code L - R -} its arrival.
     */
    static Queue queue(Arrival.Open o, long timeScaleDivisor, double capacityPerSecond, long oneNanos, int requeues) {
        long n = o.requests();
        long m = Math.max(1, (n + SIMULATED_ARRIVALS - 1) / SIMULATED_ARRIVALS);
        double capacity = capacityPerSecond / m;
        long servers = Math.max(1, Math.round(capacityPerSecond * oneNanos / 1e9));
        long thinnedServers = Math.max(1, Math.round((double) servers / m));
        double holdNanos = thinnedServers * 1e9 / capacity;
        int count = (int) ((n + m - 1) / m);
        if (requeues == 0) {   // requests leave in the order they started: a ring of the last N starts is all it needs
            double[] ring = new double[(int) Math.min(thinnedServers, count)];
            double waitSum = 0;
            for (int j = 0; j < count; j++) {
                double arrival = o.pacer().dueNanos(j * m) / (double) timeScaleDivisor;
                int slot = j % ring.length;
                double start = j < ring.length ? arrival : Math.max(arrival, ring[slot] + holdNanos);
                ring[slot] = start;
                waitSum += start - arrival;
            }
            return new Queue(servers, Math.round(servers * 1e9 / capacityPerSecond), Math.round(waitSum / count));
        }
        // the whole schedule, to find who arrived by the time a request's work queues again (up to 16 MB)
        double[] arrivals = new double[count];
        double[] starts = new double[count];
        for (int j = 0; j < count; j++) {
            arrivals[j] = o.pacer().dueNanos(j * m) / (double) timeScaleDivisor;
            starts[j] = j < thinnedServers ? arrivals[j] : Math.max(arrivals[j], starts[(int) (j - thinnedServers)] + holdNanos);
        }
        double waitSum = 0;
        for (int j = 0; j < count; j++) {
            double leaves = starts[j] + oneNanos;
            // each requeue: the rest of its work waits behind the calls of the last request that arrived by then
            for (int trip = 0; trip < requeues; trip++) {
                int last = lastArrivedBy(arrivals, leaves);
                leaves = Math.max(leaves, starts[last]);
            }
            waitSum += leaves - oneNanos - arrivals[j];
        }
        return new Queue(servers, Math.round(servers * 1e9 / capacityPerSecond), Math.round(waitSum / count));
    }

    /** The index of the last of the (ascending) {@code arrivals} at or before {@code nanos}, or 0. */
    private static int lastArrivedBy(double[] arrivals, double nanos) {
        int i = java.util.Arrays.binarySearch(arrivals, nanos);
        if (i < 0) return Math.max(0, -i - 2);
        while (i + 1 < arrivals.length && arrivals[i + 1] <= nanos) i++;   // equal arrivals (a step's burst): the last
        return i;
    }

    /** {@code ; p50 40ms, p99 300ms} on the model's path, or nothing for fixed latencies. */
    private static String percentiles(Prediction one, RequestTimes drawn, long cpuNanosPerRequest) {
        if (drawn == null || one.path() == null) return "";
        return "; p50 " + Durations.format(drawn.percentileNanos(one.path(), 50) + cpuNanosPerRequest)
                + ", p99 " + Durations.format(drawn.percentileNanos(one.path(), 99) + cpuNanosPerRequest) + " (drawn)";
    }

    /** Little's requests in flight, not a rate: whole with separators from 100, else three significant digits. */
    private static String inFlight(double requests) {
        return String.format(Locale.ROOT, requests >= 100 ? "%,.0f" : "%.3g", requests);
    }

    /** How a scaled run's rate relates to the asked one: the schedule is compressed by the time scale too. */
    private static String scaled(long timeScaleDivisor) {
        return timeScaleDivisor == 1 ? "" : " (the asked rate x " + timeScaleDivisor + ": delays and the schedule / " + timeScaleDivisor + ")";
    }
}
