package dev.blocklab.report;

import dev.blocklab.result.Axis;
import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.Series;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link Chart} as an inline SVG element: axes with ticks and titles (label and unit), linear or
 * log-10 scales, one colour per series or bar group, a legend under the plot, and a {@code <title>} on every
 * data point or bar so a pointer shows its figures without scripts. Pure: the same chart gives the same text.
 * Data marks carry {@code class="point"} (lines) or {@code class="bar"} with {@code data-x}/{@code data-y}.
 */
final class Svg {
    static final int WIDTH = 720;
    private static final int PLOT_HEIGHT = 260;
    private static final int LEFT = 78;
    private static final int RIGHT = 24;
    private static final int TOP = 40;
    private static final int PANEL_HEIGHT = 150;
    private static final int PANEL_LEFT = 64;
    /** Tableau 10: distinguishable, and readable for the common colour-vision deficiencies. */
    static final List<String> PALETTE = List.of("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
            "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac");
    private static final List<String> DASHES = List.of("", "6 3", "2 3", "8 3 2 3");

    private Svg() {}

    /** The value axis' unit of a bar chart whose bars each carry their own unit in their name ("CPU us"). */
    static final String UNIT_PER_BARS = "unit in legend";
    /** The x axis of a percentile spectrum: x = 1/(1-p), shown and hovered as the percentile p. */
    static final String PERCENTILE_AXIS = "1/(1-p)";

    static String draw(Chart chart) { return draw(chart, List.of()); }

    /**
     * @param sources for a chart overlaid from several saved files ({@link Comparison}): the sources' labels that
     *                prefix its series and bar names ({@code source: name}); each source gets its own palette (and
     *                dash, for lines) and the legend lists each name once and each source once. Empty otherwise.
     */
    static String draw(Chart chart, List<String> sources) {
        Styles styles = Styles.of(chart, sources);
        return switch (chart) {
            case Chart.LineChart line -> line(line, styles);
            case Chart.BarChart bar when bar.valueAxis().unit().equals(UNIT_PER_BARS) && bar.bars().size() > 1 -> multiples(bar);
            case Chart.BarChart bar -> bar(bar, styles, WIDTH, TOP + PLOT_HEIGHT, true);
        };
    }

    // ---- line charts ----

    private static String line(Chart.LineChart c, Styles styles) {
        boolean spectrum = c.xAxis().label().contains(PERCENTILE_AXIS);
        // a spectrum of one request is p0 and its maximum at x = 10 (Series.spectrum): a flat line that shows no distribution
        List<String> single = spectrum ? c.series().stream().filter(s -> s.points().size() == 2
                && s.points().get(0).x() == 1 && s.points().get(1).x() == 10).map(Series::name).toList() : List.of();
        List<double[]> all = new ArrayList<>();
        for (Series s : c.series())
            if (!single.contains(s.name()))
                for (Series.Point p : s.points())
                    if (fits(p.x(), c.logX()) && fits(p.y(), c.logY())) all.add(new double[]{p.x(), p.y()});
        int plotRight = WIDTH - RIGHT;
        Legend legend = Legend.of(styles.legend(c.series().stream().map(Series::name).toList(), true).stream()
                .filter(e -> !single.contains(e.name())).toList(), plotRight - LEFT);
        int bottom = TOP + PLOT_HEIGHT;
        String leftOut = single.isEmpty() ? "" : "Left out, one request each (a single latency has no distribution): " + String.join(", ", single);
        int notes = leftOut.isEmpty() ? 0 : wrap(leftOut, plotRight - LEFT).size() * Legend.ROW_HEIGHT;
        int height = bottom + 64 + legend.height() + notes;
        StringBuilder out = open(c.title(), height);
        if (!leftOut.isEmpty()) note(out, leftOut, LEFT, bottom + 64 + legend.height(), plotRight - LEFT);
        if (all.isEmpty()) return noData(out, bottom);
        Scale x = Scale.of(all.stream().mapToDouble(p -> p[0]).toArray(), c.xAxis(), c.logX(), false, LEFT, plotRight);
        Scale y = Scale.of(all.stream().mapToDouble(p -> p[1]).toArray(), c.yAxis(), c.logY(), false, bottom, TOP);
        axes(out, x, y, c.xAxis(), c.yAxis(), bottom, plotRight, true);
        for (int i = 0; i < c.series().size(); i++) {
            Series s = c.series().get(i);
            if (single.contains(s.name())) continue;
            String colour = styles.colour(i);
            List<Series.Point> pts = s.points().stream().filter(p -> fits(p.x(), c.logX()) && fits(p.y(), c.logY())).toList();
            out.append("<g class=\"series\" data-series=\"").append(Html.esc(s.name())).append("\">");
            if (pts.size() > 1) {
                out.append("<polyline fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\"");
                String dash = styles.dash(i);
                if (!dash.isEmpty()) out.append(" stroke-dasharray=\"").append(dash).append('"');
                out.append(" points=\"");
                for (int k = 0; k < pts.size(); k++) {
                    if (k > 0) out.append(' ');
                    out.append(n(x.at(pts.get(k).x()))).append(',').append(n(y.at(pts.get(k).y())));
                }
                out.append("\"/>");
            }
            for (Series.Point p : pts) {
                out.append("<circle class=\"point\" cx=\"").append(n(x.at(p.x()))).append("\" cy=\"").append(n(y.at(p.y())))
                        .append("\" r=\"3\" fill=\"").append(colour).append("\" data-x=\"").append(Html.num(p.x()))
                        .append("\" data-y=\"").append(Html.num(p.y())).append("\"><title>").append(Html.esc(s.name()))
                        .append(": ").append(spectrum ? "p" + Html.num(percentile(p.x())) : Html.esc(c.xAxis().label()) + " " + Html.num(p.x()))
                        .append(", ").append(Html.esc(c.yAxis().label())).append(' ').append(Html.num(p.y()))
                        .append(unitSuffix(c.yAxis())).append("</title></circle>");
            }
            out.append("</g>");
        }
        legend.draw(out, LEFT, bottom + 64);
        return out.append("</svg>").toString();
    }

    /** The percentile p (0 to 100) that {@code x = 1/(1-p)} stands for, to four significant digits. */
    static double percentile(double x) {
        return new BigDecimal(100 * (1 - 1 / x)).round(new java.math.MathContext(4)).doubleValue();
    }

    // ---- bar charts ----

    /**
     * Bars that each carry their own unit (CPU us, KiB, context switches, threads per request) as small multiples:
     * one panel per bar series, each with its own axis and unit, two panels a row, in one SVG.
     */
    private static String multiples(Chart.BarChart c) {
        int columns = 2;
        int panelWidth = WIDTH / columns;
        int panelBottom = TOP + PANEL_HEIGHT;
        List<String> panels = new ArrayList<>();
        int rowHeight = 0;
        for (int i = 0; i < c.bars().size(); i++) {
            Bars b = c.bars().get(i);
            String[] labelAndUnit = unitOf(b.name());
            Chart.BarChart panel = new Chart.BarChart(new Axis(labelAndUnit[0] + " per request", labelAndUnit[1]).title(), c.categoryAxis(),
                    c.categories(), new Axis("per request", labelAndUnit[1]), List.of(b), c.logY() && spansWidely(b), "");
            String svg = bar(panel, Styles.single(colour(i)), panelWidth, panelBottom, false);
            panels.add(svg);
            rowHeight = Math.max(rowHeight, heightOf(svg));
        }
        int rows = (panels.size() + columns - 1) / columns;
        StringBuilder out = open(c.title(), 30 + rows * rowHeight);
        for (int i = 0; i < panels.size(); i++) {
            String svg = panels.get(i);
            out.append(svg.replaceFirst("^<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\"",
                    "<svg class=\"panel\" x=\"" + (i % columns) * panelWidth + "\" y=\"" + (30 + (i / columns) * rowHeight) + "\""));
        }
        return out.append("</svg>").toString();
    }

    /** {@code "CPU us"} -> {@code ["CPU", "us"]}; a name without a unit word counts something: {@code [name, "count"]}. */
    static String[] unitOf(String name) {
        int space = name.lastIndexOf(' ');
        if (space > 0 && UNITS.contains(name.substring(space + 1))) return new String[]{name.substring(0, space), name.substring(space + 1)};
        return new String[]{name, "count"};
    }

    private static final List<String> UNITS = List.of("ns", "us", "ms", "s", "B", "KiB", "MiB", "GiB", "%");

    private static boolean spansWidely(Bars b) {
        double min = Double.POSITIVE_INFINITY, max = 0;
        for (Double v : b.values())
            if (v != null && v > 0) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        return max > 0 && max / min > 30;
    }

    private static int heightOf(String svg) {
        var m = java.util.regex.Pattern.compile("height=\"(\\d+)\"").matcher(svg);
        return m.find() ? Integer.parseInt(m.group(1)) : PLOT_HEIGHT;
    }

    private static String bar(Chart.BarChart c, Styles styles, int width, int bottom, boolean withTitle) {
        List<Double> values = new ArrayList<>();
        for (Bars b : c.bars())
            for (Double v : b.values())
                if (v != null && fits(v, c.logY())) values.add(v);
        int left = width < WIDTH ? PANEL_LEFT : LEFT;
        int plotRight = width - RIGHT;
        int categories = Math.max(1, c.categories().size());
        double groupWidth = (double) (plotRight - left) / categories;
        int longest = c.categories().stream().mapToInt(String::length).max().orElse(0);
        boolean rotate = longest * 6.5 > groupWidth - 4;
        int labelHeight = rotate ? (int) Math.min(150, longest * 4.8 + 16) : 22;
        Legend legend = withTitle ? Legend.of(styles.legend(c.bars().stream().map(Bars::name).toList(), false), plotRight - left) : Legend.NONE;
        int legendTop = bottom + labelHeight + 30;
        StringBuilder out = withTitle ? open(c.title(), legendTop + legend.height()) : openPanel(c.title(), width, legendTop - 18);
        if (values.isEmpty()) return noData(out, bottom);
        double[] data = values.stream().mapToDouble(Double::doubleValue).toArray();
        Scale y = Scale.of(data, c.valueAxis(), c.logY(), true, bottom, TOP);
        axes(out, null, y, c.categoryAxis(), c.valueAxis(), left, bottom, plotRight, false);
        double barWidth = groupWidth * 0.8 / Math.max(1, c.bars().size());
        for (int k = 0; k < c.categories().size(); k++) {
            double groupLeft = left + k * groupWidth + groupWidth * 0.1;
            double centre = left + (k + 0.5) * groupWidth;
            String label = c.categories().get(k);
            if (rotate) {
                out.append("<text class=\"category\" transform=\"translate(").append(n(centre + 3)).append(',').append(bottom + 10)
                        .append(") rotate(-35)\" text-anchor=\"end\">").append(Html.esc(label)).append("</text>");
            } else {
                out.append("<text class=\"category\" x=\"").append(n(centre)).append("\" y=\"").append(bottom + 16)
                        .append("\" text-anchor=\"middle\">").append(Html.esc(label)).append("</text>");
            }
            for (int i = 0; i < c.bars().size(); i++) {
                Bars b = c.bars().get(i);
                Double v = b.values().get(k);
                if (v == null) continue;
                double barLeft = groupLeft + i * barWidth;
                if (!fits(v, c.logY())) {
                    out.append("<text class=\"zero\" x=\"").append(n(barLeft + barWidth / 2)).append("\" y=\"").append(bottom - 3)
                            .append("\" text-anchor=\"middle\" fill=\"").append(styles.colour(i)).append("\">0</text>");
                    continue;
                }
                double top = y.at(v);
                double base = c.logY() ? bottom : y.at(Math.max(0, y.lo()));
                out.append("<rect class=\"bar\" x=\"").append(n(barLeft)).append("\" y=\"").append(n(Math.min(top, base)))
                        .append("\" width=\"").append(n(Math.max(1, barWidth - 1))).append("\" height=\"").append(n(Math.max(0.5, Math.abs(base - top))))
                        .append("\" fill=\"").append(styles.colour(i)).append("\" data-x=\"").append(Html.esc(label))
                        .append("\" data-y=\"").append(Html.num(v)).append("\"><title>").append(Html.esc(label)).append(", ")
                        .append(Html.esc(b.name())).append(": ").append(Html.num(v)).append(unitSuffix(c.valueAxis()))
                        .append("</title></rect>");
            }
        }
        legend.draw(out, left, legendTop);
        return out.append("</svg>").toString();
    }

    // ---- shared parts ----

    /** A panel of small multiples: its own coordinates, a smaller title, no legend (the title names its one series). */
    private static StringBuilder openPanel(String title, int width, int height) {
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" width=\"").append(width).append("\" height=\"").append(height).append("\">");
        out.append("<text class=\"panel-title\" x=\"").append(width / 2).append("\" y=\"22\" text-anchor=\"middle\">")
                .append(Html.esc(title)).append("</text>");
        return out;
    }

    /** A wrapped line of small text under the legend, e.g. why some series are left out. */
    private static void note(StringBuilder out, String text, int left, int top, int width) {
        List<String> lines = wrap(text, width);
        for (int i = 0; i < lines.size(); i++)
            out.append("<text class=\"chart-note\" x=\"").append(left).append("\" y=\"").append(top + i * Legend.ROW_HEIGHT)
                    .append("\">").append(Html.esc(lines.get(i))).append("</text>");
    }

    private static List<String> wrap(String text, int width) {
        int perLine = Math.max(20, (int) (width / 6.2));
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > perLine) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) line.append(' ');
            line.append(word);
        }
        if (!line.isEmpty()) lines.add(line.toString());
        return lines;
    }

    private static StringBuilder open(String title, int height) {
        StringBuilder out = new StringBuilder();
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
                .append("\" width=\"").append(WIDTH).append("\" height=\"").append(height).append("\" role=\"img\">");
        out.append("<title>").append(Html.esc(title)).append("</title>");
        out.append("<text class=\"title\" x=\"").append(WIDTH / 2).append("\" y=\"22\" text-anchor=\"middle\">")
                .append(Html.esc(title)).append("</text>");
        return out;
    }

    private static String noData(StringBuilder out, int bottom) {
        out.append("<text class=\"nodata\" x=\"").append(WIDTH / 2).append("\" y=\"").append(bottom / 2 + 20)
                .append("\" text-anchor=\"middle\">no data</text>");
        return out.append("</svg>").toString();
    }

    /** Grid, axis lines, ticks and axis titles; {@code x} is null for bar charts (categories label themselves). */
    private static void axes(StringBuilder out, Scale x, Scale y, Axis xAxis, Axis yAxis, int bottom, int plotRight, boolean xNumeric) {
        axes(out, x, y, xAxis, yAxis, LEFT, bottom, plotRight, xNumeric);
    }

    private static void axes(StringBuilder out, Scale x, Scale y, Axis xAxis, Axis yAxis, int left, int bottom, int plotRight, boolean xNumeric) {
        for (Scale.Tick t : y.ticks()) {
            double py = y.at(t.value());
            out.append("<line class=\"grid\" x1=\"").append(left).append("\" x2=\"").append(plotRight).append("\" y1=\"").append(n(py))
                    .append("\" y2=\"").append(n(py)).append("\"/>");
            out.append("<text class=\"tick\" x=\"").append(left - 6).append("\" y=\"").append(n(py + 4))
                    .append("\" text-anchor=\"end\">").append(Html.esc(t.label())).append("</text>");
        }
        if (x != null) {
            for (Scale.Tick t : x.ticks()) {
                double px = x.at(t.value());
                out.append("<line class=\"grid\" x1=\"").append(n(px)).append("\" x2=\"").append(n(px)).append("\" y1=\"").append(TOP)
                        .append("\" y2=\"").append(bottom).append("\"/>");
                out.append("<text class=\"tick\" x=\"").append(n(px)).append("\" y=\"").append(bottom + 16)
                        .append("\" text-anchor=\"middle\">").append(Html.esc(t.label())).append("</text>");
            }
        }
        out.append("<line class=\"axis\" x1=\"").append(left).append("\" x2=\"").append(plotRight).append("\" y1=\"").append(bottom)
                .append("\" y2=\"").append(bottom).append("\"/>");
        out.append("<line class=\"axis\" x1=\"").append(left).append("\" x2=\"").append(left).append("\" y1=\"").append(TOP)
                .append("\" y2=\"").append(bottom).append("\"/>");
        String yTitle = yAxis.title() + (y.log() ? ", log scale" : "");
        out.append("<text class=\"axis-title\" transform=\"translate(16,").append((TOP + bottom) / 2)
                .append(") rotate(-90)\" text-anchor=\"middle\">").append(Html.esc(yTitle)).append("</text>");
        if (xNumeric) {
            String xTitle = xAxis.title() + (x.log() ? ", log scale" : "");
            out.append("<text class=\"axis-title\" x=\"").append((left + plotRight) / 2).append("\" y=\"").append(bottom + 38)
                    .append("\" text-anchor=\"middle\">").append(Html.esc(xTitle)).append("</text>");
        }
    }

    private static String unitSuffix(Axis axis) {
        return axis.unit().isEmpty() || axis.unit().equals("count") ? "" : " " + axis.unit();
    }

    static String colour(int i) { return PALETTE.get(i % PALETTE.size()); }

    private static String dash(int i) { return DASHES.get((i / PALETTE.size()) % DASHES.size()); }

    private static boolean fits(double v, boolean log) { return !log || v > 0; }

    /** An SVG coordinate: one decimal, Locale.ROOT. */
    static String n(double v) { return String.format(Locale.ROOT, "%.1f", v); }

    /** One legend entry: a line (with its dash) or a swatch, in a colour. */
    record Entry(String name, String colour, String dash, boolean line) {}

    /**
     * How series look: by index in the Tableau palette; or, for a chart overlaid from several sources, by the name
     * after {@code source: } (the same name, the same hue in every source) and by source (each its own palette:
     * Tableau, then darker, then lighter shades of the same hues; and, for lines, its own dash).
     */
    record Styles(List<String> colours, List<String> dashes, List<Entry> sourceEntries) {
        static Styles single(String colour) { return new Styles(List.of(colour), List.of(""), List.of()); }

        static Styles of(Chart chart, List<String> sources) {
            List<String> names = switch (chart) {
                case Chart.LineChart l -> l.series().stream().map(Series::name).toList();
                case Chart.BarChart b -> b.bars().stream().map(Bars::name).toList();
            };
            boolean lines = chart instanceof Chart.LineChart;
            List<String> colours = new ArrayList<>(), dashes = new ArrayList<>();
            if (sources.size() < 2) {
                for (int i = 0; i < names.size(); i++) {
                    colours.add(Svg.colour(i));
                    dashes.add(Svg.dash(i));
                }
                return new Styles(colours, dashes, List.of());
            }
            List<String> bare = new ArrayList<>();
            List<String> used = new ArrayList<>();
            for (String name : names) {
                int source = sourceOf(name, sources);
                String rest = source < 0 ? name : name.substring(sources.get(source).length() + 2);
                if (!bare.contains(rest)) bare.add(rest);
                if (source >= 0 && !used.contains(sources.get(source))) used.add(sources.get(source));
                int s = Math.max(0, used.indexOf(source < 0 ? "" : sources.get(source)));
                colours.add(shade(Svg.colour(bare.indexOf(rest)), s));
                dashes.add(lines ? DASHES.get(s % DASHES.size()) : "");
            }
            List<Entry> sourceEntries = new ArrayList<>();
            for (int s = 0; s < used.size(); s++)
                sourceEntries.add(new Entry(used.get(s) + (lines ? "" : " (shade " + (s + 1) + ")"), shade("#777777", s),
                        lines ? DASHES.get(s % DASHES.size()) : "", lines));
            return new Styles(colours, dashes, sourceEntries);
        }

        private static int sourceOf(String name, List<String> sources) {
            int best = -1;
            for (int i = 0; i < sources.size(); i++)
                if (name.startsWith(sources.get(i) + ": ") && (best < 0 || sources.get(i).length() > sources.get(best).length())) best = i;
            return best;
        }

        /** Source 0: the colour; 1: darker; 2: lighter; then again darker and lighter, further. */
        static String shade(String hex, int source) {
            if (source == 0) return hex;
            double amount = Math.min(0.8, 0.35 * ((source + 1) / 2));
            boolean darker = source % 2 == 1;
            int rgb = Integer.parseInt(hex.substring(1), 16);
            StringBuilder out = new StringBuilder("#");
            for (int shift = 16; shift >= 0; shift -= 8) {
                int c = (rgb >> shift) & 0xff;
                int v = darker ? (int) Math.round(c * (1 - amount)) : (int) Math.round(c + (255 - c) * amount);
                out.append(String.format(Locale.ROOT, "%02x", v));
            }
            return out.toString();
        }

        String colour(int i) { return colours.get(i % colours.size()); }

        String dash(int i) { return dashes.get(i % dashes.size()); }

        /** Legend entries: each series once (in the first source's colours), then each source once. */
        List<Entry> legend(List<String> names, boolean lines) {
            List<Entry> entries = new ArrayList<>();
            if (sourceEntries.isEmpty()) {
                for (int i = 0; i < names.size(); i++) entries.add(new Entry(names.get(i), colour(i), dash(i), lines));
                return entries;
            }
            List<String> seen = new ArrayList<>();
            for (int i = 0; i < names.size(); i++) {
                String rest = names.get(i).contains(": ") ? names.get(i).substring(names.get(i).indexOf(": ") + 2) : names.get(i);
                if (seen.contains(rest)) continue;
                seen.add(rest);
                entries.add(new Entry(rest, Svg.colour(seen.size() - 1), "", lines));
            }
            entries.addAll(sourceEntries);
            return entries;
        }
    }

    /** Legend entries flowed left to right, wrapping at the plot's width. */
    private record Legend(List<Entry> entries, List<int[]> positions, int rows) {
        static final int ROW_HEIGHT = 18;
        static final Legend NONE = new Legend(List.of(), List.of(), 0);

        static Legend of(List<Entry> entries, int width) {
            List<int[]> positions = new ArrayList<>();
            int x = 0;
            int row = 0;
            for (Entry e : entries) {
                int w = 26 + (int) Math.ceil(e.name().length() * 6.6) + 14;
                if (x > 0 && x + w > width) {
                    x = 0;
                    row++;
                }
                positions.add(new int[]{x, row});
                x += w;
            }
            return new Legend(entries, positions, entries.isEmpty() ? 0 : row + 1);
        }

        int height() { return rows == 0 ? 0 : rows * ROW_HEIGHT + 8; }

        void draw(StringBuilder out, int left, int top) {
            if (entries.isEmpty()) return;
            out.append("<g class=\"legend\">");
            for (int i = 0; i < entries.size(); i++) {
                Entry e = entries.get(i);
                int x = left + positions.get(i)[0];
                int y = top + positions.get(i)[1] * ROW_HEIGHT;
                if (e.line()) {
                    out.append("<line x1=\"").append(x).append("\" x2=\"").append(x + 20).append("\" y1=\"").append(y - 4)
                            .append("\" y2=\"").append(y - 4).append("\" stroke=\"").append(e.colour()).append("\" stroke-width=\"2\"");
                    if (!e.dash().isEmpty()) out.append(" stroke-dasharray=\"").append(e.dash()).append('"');
                    out.append("/>");
                } else {
                    out.append("<rect x=\"").append(x + 4).append("\" y=\"").append(y - 10).append("\" width=\"12\" height=\"10\" fill=\"")
                            .append(e.colour()).append("\"/>");
                }
                out.append("<text x=\"").append(x + 26).append("\" y=\"").append(y).append("\">").append(Html.esc(e.name())).append("</text>");
            }
            out.append("</g>");
        }
    }

    /** Maps data values to pixels, linearly or by log 10, and chooses the ticks. */
    record Scale(double lo, double hi, boolean log, double pixLo, double pixHi, List<Tick> ticks) {
        record Tick(double value, String label) {}

        double at(double v) {
            double t = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
            return pixLo + t * (pixHi - pixLo);
        }

        /** @param fromZero bars: a linear axis starts at zero, a log axis a little below the smallest value */
        static Scale of(double[] values, Axis axis, boolean log, boolean fromZero, double pixLo, double pixHi) {
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (double v : values) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            for (Axis.Tick t : axis.ticks())
                if (!log || t.value() > 0) {
                    min = Math.min(min, t.value());
                    max = Math.max(max, t.value());
                }
            // bars grow from the bottom of a log axis: keep the smallest a visible height above it
            if (log) return logScale(fromZero ? min * 0.9 : min, max, axis, pixLo, pixHi);
            if (fromZero || min >= 0) min = Math.min(0, min);
            // all values equal (every bar 0): a percent axis spans 0-100 %, others one unit, so ticks are not 0, 0.2 ... 1 %
            if (max <= min) max = min + ("%".equals(axis.unit()) ? 100 : 1);
            double step = niceStep((max - min) / 5);
            double lo = Math.floor(min / step) * step;
            double hi = Math.ceil(max / step) * step;
            List<Tick> ticks = new ArrayList<>();
            if (!axis.ticks().isEmpty()) {
                for (Axis.Tick t : axis.ticks()) ticks.add(new Tick(t.value(), t.label()));
            } else {
                for (int i = 0; lo + i * step <= hi + step * 1e-9; i++) {
                    double v = lo + i * step;
                    ticks.add(new Tick(v, label(Math.abs(v) < step * 1e-9 ? 0 : v)));
                }
            }
            return new Scale(lo, hi, false, pixLo, pixHi, ticks);
        }

        private static Scale logScale(double min, double max, Axis axis, double pixLo, double pixHi) {
            int loDecade = (int) Math.floor(Math.log10(min) + 1e-9);
            int hiDecade = (int) Math.ceil(Math.log10(max) - 1e-9);
            if (hiDecade <= loDecade) hiDecade = loDecade + 1;
            List<Tick> ticks = new ArrayList<>();
            if (!axis.ticks().isEmpty()) {
                for (Axis.Tick t : axis.ticks()) if (t.value() > 0) ticks.add(new Tick(t.value(), t.label()));
            } else {
                int decades = hiDecade - loDecade;
                int every = decades > 8 ? 2 : 1;
                for (int d = loDecade; d <= hiDecade; d += every) ticks.add(new Tick(Math.pow(10, d), label(Math.pow(10, d))));
                if (decades == 1) {
                    for (double m : new double[]{2, 5}) ticks.add(new Tick(m * Math.pow(10, loDecade), label(m * Math.pow(10, loDecade))));
                    ticks.sort((a, b) -> Double.compare(a.value(), b.value()));
                }
            }
            return new Scale(Math.pow(10, loDecade), Math.pow(10, hiDecade), true, pixLo, pixHi, ticks);
        }

        static double niceStep(double raw) {
            if (!(raw > 0)) return 1;
            double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
            for (double m : new double[]{1, 2, 2.5, 5, 10})
                if (m * magnitude >= raw - 1e-12) return m * magnitude;
            return 10 * magnitude;
        }

        /** A tick label: plain decimals between 0.001 and 1,000,000, {@code 2e7} style outside. */
        static String label(double v) {
            if (v == 0) return "0";
            double a = Math.abs(v);
            if (a >= 1e6 || a < 1e-3) {
                int exp = (int) Math.floor(Math.log10(a) + 1e-9);
                double mantissa = v / Math.pow(10, exp);
                return Html.num(Math.round(mantissa * 10) / 10.0) + "e" + exp;
            }
            return Html.num(v);
        }
    }
}
