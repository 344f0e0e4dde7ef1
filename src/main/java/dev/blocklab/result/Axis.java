package dev.blocklab.result;

import java.util.List;
import java.util.Objects;

/**
 * One axis of a chart: what it measures and in which unit, e.g. {@code new Axis("wall time", "ms")}.
 *
 * @param label what the axis measures
 * @param unit  its unit, printed after the label in brackets; empty for counts and ratios without one
 * @param ticks fixed tick positions with their labels (in the axis' data units), or empty to let the chart choose
 *              round values; used where the data are a transform, e.g. percentiles drawn as {@code 1/(1-p)}
 */
public record Axis(String label, String unit, List<Tick> ticks) {
    public Axis {
        Objects.requireNonNull(label, "label");
        unit = unit == null ? "" : unit;
        ticks = ticks == null ? List.of() : List.copyOf(ticks);
    }

    public Axis(String label, String unit) { this(label, unit, List.of()); }

    /** {@code label (unit)}, or the label alone when there is no unit. */
    public String title() { return unit.isEmpty() ? label : label + " (" + unit + ")"; }

    /** A tick at {@code value} in data units, shown as {@code label}. */
    public record Tick(double value, String label) {
        public Tick {
            if (!Double.isFinite(value)) throw new IllegalArgumentException("tick value must be finite: " + value);
            Objects.requireNonNull(label, "label");
        }
    }
}
