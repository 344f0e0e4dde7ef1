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

    @Test void draw_barsWithTheirOwnUnits_areSmallMultiples_onePanelAndOneAxisPerUnit() {
        Chart c = new Chart.BarChart("cost", new Axis("run", ""), List.of("a", "b"), new Axis("cost per request", Svg.UNIT_PER_BARS),
                List.of(new Bars("CPU us", List.of(12.0, 3.0)), new Bars("allocated KiB", List.of(40.0, 2.0)),
                        new Bars("context switches", List.of(0.5, 0.0))), true, "cap");
        String svg = Svg.draw(c);
        assertThat(count(svg, "<svg class=\"panel\"")).isEqualTo(3);
        assertThat(svg).contains(">CPU per request (us)</text>").contains(">allocated per request (KiB)</text>")
                .contains(">context switches per request (count)</text>").doesNotContain("unit in legend");
        assertThat(count(svg, "class=\"bar\"")).isEqualTo(6);      // linear panels: a zero is a flat bar
        assertThat(svg).contains("<title>a, CPU us: 12 us</title>");
    }

    @Test void unitOf_splitsAKnownUnitOffTheName() {
        assertThat(Svg.unitOf("CPU us")).containsExactly("CPU", "us");
        assertThat(Svg.unitOf("allocated KiB")).containsExactly("allocated", "KiB");
        assertThat(Svg.unitOf("platform threads started")).containsExactly("platform threads started", "count");
    }

    @Test void draw_spectrum_tooltipShowsThePercentileNotItsTransform() {
        Axis percentile = new Axis("percentile, spaced as " + Svg.PERCENTILE_AXIS, "");
        Chart c = new Chart.LineChart("spectrum", percentile, Y, List.of(new Series("v", List.of(new Series.Point(1, 5),
                new Series.Point(10, 6), new Series.Point(100, 9), new Series.Point(1000, 12)))), true, true, "cap");
        String svg = Svg.draw(c);
        assertThat(svg).contains("<title>v: p0, wall time 5 ms</title>").contains("<title>v: p90, wall time 6 ms</title>")
                .contains("<title>v: p99, wall time 9 ms</title>").contains("<title>v: p99.9, wall time 12 ms</title>")
                .doesNotContain("1/(1-p) 1000");
    }

    @Test void draw_spectrumOfOneRequest_isLeftOutAndTheChartSaysWhy() {
        Axis percentile = new Axis("percentile, spaced as " + Svg.PERCENTILE_AXIS, "");
        Chart c = new Chart.LineChart("spectrum", percentile, Y, List.of(
                new Series("many", List.of(new Series.Point(1, 5), new Series.Point(10, 6), new Series.Point(100, 9))),
                new Series("one", List.of(new Series.Point(1, 7), new Series.Point(10, 7.003)))), true, true, "cap");
        String svg = Svg.draw(c);
        assertThat(count(svg, "class=\"point\"")).isEqualTo(3);
        assertThat(svg).doesNotContain("data-series=\"one\"").contains("Left out, one request each").contains(": one</text>");
    }

    @Test void draw_comparedSources_shareHuesPerName_differInShade_andTheLegendNamesEachOnce() {
        Chart c = new Chart.LineChart("t", X, Y, List.of(
                new Series("a.jsonl: virtual", List.of(new Series.Point(1, 2), new Series.Point(2, 3))),
                new Series("a.jsonl: fixed:8", List.of(new Series.Point(1, 4), new Series.Point(2, 5))),
                new Series("b.jsonl: virtual", List.of(new Series.Point(1, 2), new Series.Point(2, 4))),
                new Series("b.jsonl: fixed:8", List.of(new Series.Point(1, 5), new Series.Point(2, 6)))), false, false, "cap");
        String svg = Svg.draw(c, List.of("a.jsonl", "b.jsonl"));
        String legend = svg.substring(svg.indexOf("<g class=\"legend\">"));
        assertThat(count(legend, "<text")).isEqualTo(4);   // virtual, fixed:8, a.jsonl, b.jsonl
        assertThat(svg).contains("stroke=\"" + Svg.PALETTE.get(0) + "\"").contains("stroke=\"" + Svg.Styles.shade(Svg.PALETTE.get(0), 1) + "\"");
        assertThat(Svg.Styles.shade("#808080", 1)).isEqualTo("#535353");
        assertThat(Svg.Styles.shade("#808080", 2)).isEqualTo("#acacac");
    }

    @Test void scale_allZeroPercentages_spanAHundredPercent_otherUnitsOne() {
        var percent = Svg.Scale.of(new double[]{0, 0}, new dev.blocklab.result.Axis("successful requests", "%"), false, true, 0, 100);
        assertThat(percent.hi()).isEqualTo(100);
        assertThat(percent.ticks()).extracting(Svg.Scale.Tick::value).contains(0.0, 100.0);
        assertThat(Svg.Scale.of(new double[]{0, 0}, new dev.blocklab.result.Axis("requests", "count"), false, true, 0, 100).hi()).isEqualTo(1);
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
