package dev.blocklab.result;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.util.List;
import java.util.Objects;

/**
 * A chart an experiment asks reports to draw: pure data, with no drawing in it. Reports that cannot draw
 * (text, CSV) ignore charts; JSON keeps them with a {@code "type"} of {@code line} or {@code bar}; the HTML report
 * draws them as inline SVG. Every chart carries a {@code caption}: one line saying how its figures were measured
 * (clock, unit, count, percentile, time scale), shown under the chart.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({@JsonSubTypes.Type(value = Chart.LineChart.class, name = "line"),
        @JsonSubTypes.Type(value = Chart.BarChart.class, name = "bar")})
public sealed interface Chart {
    String title();

    String caption();

    /**
     * Lines over two numeric axes, e.g. total time against the number of calls.
     *
     * @param logX draw the x axis on a log-10 scale (points with x &lt;= 0 are left out)
     * @param logY draw the y axis on a log-10 scale (points with y &lt;= 0 are left out)
     */
    record LineChart(String title, Axis xAxis, Axis yAxis, List<Series> series, boolean logX, boolean logY,
                     String caption) implements Chart {
        public LineChart {
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(xAxis, "xAxis");
            Objects.requireNonNull(yAxis, "yAxis");
            series = List.copyOf(series);
            caption = caption == null ? "" : caption;
        }
    }

    /**
     * Grouped bars: one group per category (e.g. per model), one bar per {@link Bars} in each group.
     *
     * @param categoryAxis what the categories are, e.g. {@code new Axis("model", "")}
     * @param categories   the category labels, in drawing order
     * @param valueAxis    the axis of the bars' values
     * @param bars         each with one value per category
     * @param logY         draw values on a log-10 scale (values &lt;= 0 are left out)
     */
    record BarChart(String title, Axis categoryAxis, List<String> categories, Axis valueAxis, List<Bars> bars,
                    boolean logY, String caption) implements Chart {
        public BarChart {
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(categoryAxis, "categoryAxis");
            Objects.requireNonNull(valueAxis, "valueAxis");
            categories = List.copyOf(categories);
            bars = List.copyOf(bars);
            for (Bars b : bars)
                if (b.values().size() != categories.size())
                    throw new IllegalArgumentException("chart '" + title + "': bars '" + b.name() + "' have "
                            + b.values().size() + " values for " + categories.size() + " categories");
            caption = caption == null ? "" : caption;
        }
    }
}
