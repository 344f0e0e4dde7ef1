package dev.blocklab.backend;

import dev.blocklab.workload.Latency;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The delays one path of the backend actually delivered, from the moment its request handler ran to the moment
 * the answer was handed to the connection, beside the configured distribution. Written by event-loop threads
 * (wait-free), read by {@code /stats} at any time.
 */
final class DeliveredDelays {
    private static final double Z90 = 1.2815515655446004;
    private static final double Z99 = 2.3263478740408408;

    private final Latency configured;   // already divided by the time scale; null when each caller chooses
    private final ConcurrentHistogram deliveredMicros = new ConcurrentHistogram(3_600_000_000L, 3);
    private final LongAdder answers = new LongAdder();
    private final LongAdder failures = new LongAdder();

    DeliveredDelays(Latency configured) {
        this.configured = configured;
    }

    void record(long deliveredNanos, boolean failed) {
        deliveredMicros.recordValue(Math.max(0, deliveredNanos / 1_000));
        answers.increment();
        if (failed) failures.increment();
    }

    /** A snapshot for {@code /stats}: counts, then delivered and configured percentiles in milliseconds. */
    Map<String, Object> snapshot() {
        Histogram h = deliveredMicros.copy();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("answers", answers.sum());
        m.put("failures", failures.sum());
        if (configured != null) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("distribution", configured.label());
            c.put("p50", millis(quantileNanos(configured, 0)));
            c.put("p90", millis(quantileNanos(configured, Z90)));
            c.put("p99", millis(quantileNanos(configured, Z99)));
            m.put("configuredMillis", c);
        } else {
            m.put("configuredMillis", "per request (delayMicros)");
        }
        Map<String, Object> d = new LinkedHashMap<>();
        if (h.getTotalCount() > 0) {
            d.put("min", h.getMinValue() / 1e3);
            d.put("mean", Math.round(h.getMean()) / 1e3);
            d.put("p50", h.getValueAtPercentile(50) / 1e3);
            d.put("p90", h.getValueAtPercentile(90) / 1e3);
            d.put("p99", h.getValueAtPercentile(99) / 1e3);
            d.put("p999", h.getValueAtPercentile(99.9) / 1e3);
            d.put("max", h.getMaxValue() / 1e3);
        }
        m.put("deliveredMillis", d);
        return m;
    }

    /** The configured delay at the normal quantile {@code z} (0: median, 2.326: p99), in nanoseconds. */
    static long quantileNanos(Latency latency, double z) {
        return switch (latency) {
            case Latency.Fixed f -> f.nanos();
            case Latency.Uniform u -> u.minNanos() + Math.round((u.maxNanos() - u.minNanos()) * normalCdf(z));
            case Latency.LogNormal l -> {
                double sigma = (Math.log(l.p99Nanos()) - Math.log(l.p50Nanos())) / Z99;
                yield Math.round(Math.exp(Math.log(l.p50Nanos()) + sigma * z));
            }
        };
    }

    private static double normalCdf(double z) {
        if (z == 0) return 0.5;
        if (z == Z90) return 0.90;
        if (z == Z99) return 0.99;
        throw new IllegalArgumentException("unsupported quantile z=" + z);
    }

    private static double millis(long nanos) { return Math.round(nanos / 1e3) / 1e3; }
}
