package dev.blocklab.result;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One named group of bars of a {@link Chart.BarChart}: one value per category, in the chart's category order.
 *
 * @param name   the legend entry, e.g. {@code p99}
 * @param values one value per category in the unit of the chart's value axis; null where there is no figure
 */
public record Bars(String name, List<Double> values) {
    public Bars {
        Objects.requireNonNull(name, "name");
        for (Double v : values)
            if (v != null && !Double.isFinite(v)) throw new IllegalArgumentException("bar '" + name + "': value " + v + " is not finite");
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }
}
