package dev.blocklab.result;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One named line of a {@link Chart.LineChart}: points in the units of the chart's axes, in drawing order.
 *
 * @param name   the legend entry, e.g. a model's name
 * @param points the points; non-finite coordinates are rejected, and points that cannot sit on a log axis
 *               (zero or negative) are left out when drawn
 */
public record Series(String name, List<Point> points) {
    public Series {
        Objects.requireNonNull(name, "name");
        points = List.copyOf(points);
    }

    /**
     * Points of a percentile spectrum: x = {@code 1/(1-p)} at four steps per decade from p = 0 up to the highest
     * percentile the count resolves, y = latency in milliseconds.
     */
    public static List<Point> spectrum(Histogram nanos) {
        List<Point> points = new ArrayList<>();
        double top = Math.log10(Math.max(1, nanos.getTotalCount()));
        for (int step = 0; step <= Math.floor(top * 4 + 1e-9); step++) {
            double x = Math.pow(10, step / 4.0);
            double percentile = 100 * (1 - 1 / x);
            points.add(new Point(x, nanos.getValueAtPercentile(percentile) / 1e6));
        }
        if (points.size() == 1) points.add(new Point(10, nanos.getMaxValue() / 1e6));
        return points;
    }

    /** One point, {@code x} and {@code y} in the units of the chart's axes. */
    public record Point(double x, double y) {
        public Point {
            if (!Double.isFinite(x) || !Double.isFinite(y))
                throw new IllegalArgumentException("a chart point must be finite, got (" + x + ", " + y + ")");
        }
    }
}
