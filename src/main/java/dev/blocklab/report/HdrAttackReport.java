package dev.blocklab.report;

import dev.blocklab.result.AttackResult;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * HdrHistogram's percentile spectrum ({@code outputPercentileDistribution}, 5 ticks per half distance) of the
 * latency from intended send time, in milliseconds; the format HdrHistogram's plotter reads.
 */
final class HdrAttackReport implements Report<AttackResult> {
    @Override public String render(AttackResult r) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            r.latencyHistogramNanos().outputPercentileDistribution(ps, 5, 1e6);
        }
        return "# " + r.description() + "; latency in milliseconds from each request's intended send time\n"
                + bytes.toString(StandardCharsets.UTF_8);
    }
}
