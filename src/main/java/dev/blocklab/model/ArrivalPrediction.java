package dev.blocklab.model;

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
 *       {@code R}, in flight {@code r x R}; above capacity the queue grows for the whole run of length
 *       {@code D}, so the mean latency is {@code R + D x (1 - C / r) / 2} and the throughput {@code C}.</li>
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
        return n * 1e9 / Math.max(1, batch.nanos());
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
        String percentiles = percentiles(one, drawn, cpuNanosPerRequest);
        return switch (arrival) {
            case Arrival.Open o -> {
                double rate = (o.pacer() instanceof dev.blocklab.load.Pacer.Constant c ? c.ratePerSecond() : o.requests() * 1e9 / o.durationNanos()) * timeScaleDivisor;
                double durationSeconds = o.durationNanos() / (double) timeScaleDivisor / 1e9;
                if (rate <= capacityPerSecond) {
                    yield new Prediction(r, String.format(Locale.ROOT,
                            "open %s/s%s within the capacity %s/s: mean latency %s (one request alone: %s); throughput %s/s; in flight %s/s x %s = %s (Little)%s",
                            num(rate), scaled(timeScaleDivisor), num(capacityPerSecond), Durations.format(r), one.basis(), num(rate), num(rate),
                            Durations.format(r), num(rate * r / 1e9), percentiles), one.path());
                }
                double queueSeconds = durationSeconds * (1 - capacityPerSecond / rate) / 2;
                long mean = r + Math.round(queueSeconds * 1e9);
                yield new Prediction(mean, String.format(Locale.ROOT,
                        "open %s/s%s above the capacity %s/s: the queue grows for the run's %s, mean latency %s + %s x (1 - %s / %s) / 2 = %s; throughput %s/s",
                        num(rate), scaled(timeScaleDivisor), num(capacityPerSecond), Durations.format(Math.round(durationSeconds * 1e9)), Durations.format(r),
                        Durations.format(Math.round(durationSeconds * 1e9)), num(capacityPerSecond), num(rate), Durations.format(mean),
                        num(capacityPerSecond)), one.path());
            }
            case Arrival.Closed c -> {
                double alone = c.users() * 1e9 / Math.max(1, r);
                double throughput = Math.min(alone, capacityPerSecond);
                long mean = Math.round(c.users() * 1e9 / throughput);
                String bound = alone <= capacityPerSecond ? c.users() + " / " + Durations.format(r)
                        : "the capacity (" + c.users() + " / " + Durations.format(r) + " = " + num(alone) + "/s is more)";
                yield new Prediction(mean, String.format(Locale.ROOT,
                        "closed %d users, no think time: throughput %s = %s/s; mean latency %d / %s/s = %s (one request alone: %s)%s",
                        c.users(), bound, num(throughput), c.users(), num(throughput), Durations.format(mean), one.basis(),
                        alone <= capacityPerSecond ? percentiles : ""), one.path());
            }
            case Arrival.Batch b -> throw new IllegalArgumentException("a batch's prediction is the model's own: " + b.label());
        };
    }

    /** {@code ; p50 40ms, p99 300ms} on the model's path, or nothing for fixed latencies. */
    private static String percentiles(Prediction one, RequestTimes drawn, long cpuNanosPerRequest) {
        if (drawn == null || one.path() == null) return "";
        return "; p50 " + Durations.format(drawn.percentileNanos(one.path(), 50) + cpuNanosPerRequest)
                + ", p99 " + Durations.format(drawn.percentileNanos(one.path(), 99) + cpuNanosPerRequest) + " (drawn)";
    }

    private static String num(double v) {
        if (v >= 100) return String.format(Locale.ROOT, "%,.0f", v);
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** How a scaled run's rate relates to the asked one: the schedule is compressed by the time scale too. */
    private static String scaled(long timeScaleDivisor) {
        return timeScaleDivisor == 1 ? "" : " (the asked rate x " + timeScaleDivisor + ": delays and the schedule / " + timeScaleDivisor + ")";
    }
}
