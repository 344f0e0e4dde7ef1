package dev.blocklab.report;

import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One self-contained HTML page for one or more experiment results: a table of contents, then per result its
 * charts (inline SVG drawn by {@link Svg}, each with its caption underneath), its tables and its notes. The page
 * loads nothing: inline CSS, no scripts, no fonts, and a Content-Security-Policy that forbids fetching anything.
 *
 * <p>Deterministic: the same results and timestamp give the same bytes. The page's timestamp is given by the
 * caller, never read from a clock; {@code null} leaves it out.
 */
public final class HtmlReport implements Report<ExperimentResult> {
    private static final Pattern NUMERIC = Pattern.compile("^-?[0-9][0-9.,/e+-]*( x)?$|^-$");
    private static final Pattern FLAG = Pattern.compile("^[0-9.]+ x: .+");
    private final String generatedAt;

    /** @param generatedAt when the results were reported, shown in the header; null to leave it out */
    public HtmlReport(String generatedAt) { this.generatedAt = generatedAt; }

    @Override public String render(ExperimentResult result) {
        return renderPage(result.experiment(), List.of(result));
    }

    /** One page holding every result in order, with a table of contents. */
    public String renderPage(String title, List<ExperimentResult> results) {
        StringBuilder out = new StringBuilder(64 * 1024);
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"blocklab\">\n")
                .append("<title>blocklab: ").append(Html.esc(title)).append("</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        out.append("<header>\n<h1>blocklab: ").append(Html.esc(title)).append("</h1>\n");
        if (generatedAt != null) out.append("<p class=\"meta\">Reported ").append(Html.esc(generatedAt)).append(".</p>\n");
        out.append("</header>\n");
        List<String> ids = ids(results);
        out.append("<nav>\n<h2>Contents</h2>\n<ol>\n");
        for (int i = 0; i < results.size(); i++) {
            ExperimentResult r = results.get(i);
            out.append("<li><a href=\"#").append(ids.get(i)).append("\">").append(Html.esc(r.experiment())).append("</a> <span class=\"meta\">(")
                    .append(Html.esc(r.scale())).append(")</span> ").append(Html.esc(r.description()));
            out.append("<ol>");
            for (int c = 0; c < r.charts().size(); c++)
                out.append("<li><a href=\"#").append(ids.get(i)).append("-chart-").append(c + 1).append("\">").append(Html.esc(r.charts().get(c).title())).append("</a></li>");
            for (int t = 0; t < r.tables().size(); t++)
                out.append("<li><a href=\"#").append(ids.get(i)).append("-table-").append(t + 1).append("\">").append(Html.esc(r.tables().get(t).title())).append("</a></li>");
            out.append("</ol></li>\n");
        }
        out.append("</ol>\n</nav>\n");
        for (int i = 0; i < results.size(); i++) section(out, results.get(i), ids.get(i));
        boolean charts = results.stream().anyMatch(r -> !r.charts().isEmpty());
        out.append("<footer><p class=\"meta\">Drawn by blocklab: self-contained, nothing loaded from the network.")
                .append(charts ? " Hover a point or bar for its figures." : "").append("</p></footer>\n");
        return out.append("</body>\n</html>\n").toString();
    }

    private static void section(StringBuilder out, ExperimentResult r, String id) {
        out.append("<section class=\"experiment\" id=\"").append(id).append("\">\n");
        out.append("<h2>").append(Html.esc(r.experiment())).append(" <span class=\"meta\">(").append(Html.esc(r.scale())).append(")</span></h2>\n");
        out.append("<p>").append(Html.esc(r.description())).append("</p>\n");
        if (r.environment() != null) out.append("<p class=\"meta\">Machine: ").append(Html.esc(r.environment().summary())).append("</p>\n");
        if (!r.charts().isEmpty()) {
            out.append("<div class=\"charts\">\n");
            for (int c = 0; c < r.charts().size(); c++) {
                Chart chart = r.charts().get(c);
                out.append("<figure id=\"").append(id).append("-chart-").append(c + 1).append("\">\n").append(Svg.draw(chart, Comparison.sources(r))).append('\n')
                        .append("<figcaption>").append(Html.esc(chart.caption())).append("</figcaption>\n</figure>\n");
            }
            out.append("</div>\n");
        }
        for (int t = 0; t < r.tables().size(); t++) table(out, r.tables().get(t), id + "-table-" + (t + 1));
        if (!r.notes().isEmpty()) {
            out.append("<h3>Notes</h3>\n<ul class=\"notes\">\n");
            for (String note : r.notes()) out.append("<li>").append(Html.esc(note)).append("</li>\n");
            out.append("</ul>\n");
        }
        out.append("</section>\n");
    }

    private static void table(StringBuilder out, Table table, String id) {
        out.append("<h3 id=\"").append(id).append("\">").append(Html.esc(table.title())).append("</h3>\n<div class=\"table\"><table>\n<thead><tr>");
        for (String column : table.columns()) out.append("<th>").append(Html.esc(column)).append("</th>");
        out.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : table.rows()) {
            out.append("<tr>");
            for (int c = 0; c < row.size(); c++) {
                String cell = row.get(c);
                List<String> classes = new ArrayList<>();
                if (c > 0 && NUMERIC.matcher(cell).matches()) classes.add("num");
                if (FLAG.matcher(cell).matches()) classes.add("flag");
                out.append(classes.isEmpty() ? "<td>" : "<td class=\"" + String.join(" ", classes) + "\">").append(Html.esc(cell)).append("</td>");
            }
            out.append("</tr>\n");
        }
        out.append("</tbody>\n</table></div>\n");
    }

    /** Anchors {@code r1-task-graph}, {@code r2-...}: unique even when the same experiment appears twice. */
    private static List<String> ids(List<ExperimentResult> results) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < results.size(); i++)
            ids.add("r" + (i + 1) + "-" + results.get(i).experiment().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
        return ids;
    }

    private static final String CSS = """
            body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; background: #fff; margin: 0 auto; max-width: 1500px; padding: 0 24px 40px; }
            h1 { font-size: 24px; margin: 20px 0 4px; }
            h2 { font-size: 20px; border-bottom: 2px solid #4e79a7; padding-bottom: 4px; margin-top: 36px; }
            h3 { font-size: 15px; margin: 22px 0 6px; }
            .meta { color: #666; }
            nav ol { margin: 4px 0; } nav ol ol { font-size: 13px; columns: 2; }
            a { color: #2b5d8c; }
            .charts { display: flex; flex-wrap: wrap; gap: 18px; }
            figure { margin: 0; flex: 1 1 600px; max-width: 740px; border: 1px solid #ddd; border-radius: 6px; padding: 8px; background: #fcfcfc; }
            svg.chart { width: 100%; height: auto; display: block; }
            svg .title { font-size: 15px; font-weight: 600; fill: #222; }
            svg text { font-size: 12px; fill: #333; font-family: system-ui, sans-serif; }
            svg .tick, svg .category { font-size: 11px; fill: #555; }
            svg .axis-title { font-size: 12px; fill: #333; }
            svg .grid { stroke: #e3e3e3; stroke-width: 1; }
            svg .axis { stroke: #555; stroke-width: 1; }
            svg .zero { font-size: 10px; }
            svg .nodata { font-size: 16px; fill: #999; }
            svg .panel-title { font-size: 13px; font-weight: 600; fill: #222; }
            svg .chart-note { font-size: 11px; fill: #666; }
            figcaption { font-size: 12px; color: #555; margin-top: 4px; }
            .table { overflow-x: auto; }
            table { border-collapse: collapse; font-size: 12px; margin-bottom: 8px; }
            th, td { border: 1px solid #ddd; padding: 3px 6px; vertical-align: top; }
            th { background: #f0f3f7; text-align: left; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            td.flag { background: #fdecea; color: #8a1c13; font-weight: 600; white-space: nowrap; }
            tbody tr:nth-child(even) { background: #fafafa; }
            ul.notes li { margin-bottom: 3px; }
            footer { margin-top: 40px; border-top: 1px solid #ddd; }
            """;
}
