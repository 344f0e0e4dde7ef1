package dev.blocklab.result;

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

    /** One point, {@code x} and {@code y} in the units of the chart's axes. */
    public record Point(double x, double y) {
        public Point {
            if (!Double.isFinite(x) || !Double.isFinite(y))
                throw new IllegalArgumentException("a chart point must be finite, got (" + x + ", " + y + ")");
        }
    }
}
