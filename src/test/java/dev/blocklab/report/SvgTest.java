package dev.blocklab.report;

import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.Series;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SvgTest {
    private static final Axis X = new Axis("calls", "count");
    private static final Axis Y = new Axis("wall time", "ms");

    private static long count(String text, String needle) {
        return Pattern.compile(Pattern.quote(needle)).matcher(text).results().count();
    }

    @Test void draw_lineChart_onePointPerDatumAndAxisTitlesWithUnits() {
        Chart c = new Chart.LineChart("t", X, Y, List.of(new Series("a", List.of(new Series.Point(1, 2), new Series.Point(10, 20))),
                new Series("b", List.of(new Series.Point(5, 7)))), false, false, "cap");
        String svg = Svg.draw(c);
        assertThat(count(svg, "class=\"point\"")).isEqualTo(3);
        assertThat(svg).contains(">calls (count)</text>").contains(">wall time (ms)</text>").contains("data-x=\"10\" data-y=\"20\"");
        assertThat(count(svg, "<polyline")).isEqualTo(1);
    }

    @Test void draw_logAxes_dropsPointsThatCannotSitOnThem() {
        Chart c = new Chart.LineChart("t", X, Y, List.of(new Series("a", List.of(new Series.Point(0, 2), new Series.Point(10, 0),
                new Series.Point(10, 20), new Series.Point(100, 200)))), true, true, "cap");
        String svg = Svg.draw(c);
        assertThat(count(svg, "class=\"point\"")).isEqualTo(2);
        assertThat(svg).contains("calls (count), log scale").contains(">10</text>").contains(">1000</text>");
    }

    @Test void draw_barChart_nullIsNoBarAndLogZeroIsMarked() {
        Chart c = new Chart.BarChart("t", new Axis("model", ""), List.of("a", "b"), Y,
                List.of(new Bars("x", Arrays.asList(5.0, null)), new Bars("y", List.of(0.0, 50.0))), true, "cap");
        String svg = Svg.draw(c);
        assertThat(count(svg, "class=\"bar\"")).isEqualTo(2);
        assertThat(count(svg, "class=\"zero\"")).isEqualTo(1);
    }

    @Test void draw_linearBars_startAtZeroBaseline() {
        Chart c = new Chart.BarChart("t", new Axis("model", ""), List.of("a", "b"), Y,
                List.of(new Bars("x", List.of(40.0, 50.0))), false, "cap");
        String svg = Svg.draw(c);
        assertThat(svg).contains(">0</text>").contains(">50</text>");
    }

    @Test void draw_noData_saysSo() {
        String svg = Svg.draw(new Chart.LineChart("t", X, Y, List.of(), false, false, "cap"));
        assertThat(svg).contains("no data").doesNotContain("class=\"point\"");
    }

    @Test void draw_markupInNames_isEscaped() {
        String svg = Svg.draw(new Chart.BarChart("<t>", new Axis("m", ""), List.of("a<b"), Y, List.of(new Bars("\"q\"&", List.of(1.0))), false, "c"));
        assertThat(svg).contains("&lt;t&gt;").contains("a&lt;b").contains("&quot;q&quot;&amp;").doesNotContain("a<b");
    }

    @Test void niceStep_roundsUpToOneTwoOrFive() {
        assertThat(Svg.Scale.niceStep(0.7)).isEqualTo(1);
        assertThat(Svg.Scale.niceStep(13)).isEqualTo(20);
        assertThat(Svg.Scale.niceStep(230)).isEqualTo(250);
        assertThat(Svg.Scale.niceStep(4100)).isEqualTo(5000);
    }

    @Test void label_plainInRangeExponentOutside() {
        assertThat(Svg.Scale.label(1000)).isEqualTo("1000");
        assertThat(Svg.Scale.label(0.25)).isEqualTo("0.25");
        assertThat(Svg.Scale.label(1e7)).isEqualTo("1e7");
        assertThat(Svg.Scale.label(2.5e-5)).isEqualTo("2.5e-5");
    }

    @Test void htmlNum_sixSignificantDigitsNoExponent() {
        assertThat(Html.num(1234.56789)).isEqualTo("1234.57");
        assertThat(Html.num(1e-4)).isEqualTo("0.0001");
        assertThat(Html.num(20)).isEqualTo("20");
    }

    @Test void barChart_valuesNotMatchingCategories_rejected() {
        assertThatThrownBy(() -> new Chart.BarChart("t", X, List.of("a", "b"), Y, List.of(new Bars("x", List.of(1.0))), false, "c"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 values for 2 categories");
    }
}
