package dev.blocklab.report;

import dev.blocklab.result.Bars;
import dev.blocklab.result.Chart;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Series;
import dev.blocklab.result.Table;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Puts several saved runs side by side: charts of the same experiment, description, time scale and title from
 * different sources are overlaid into one chart (series and bars named {@code source: name}), grouped by
 * experiment, description and time scale in first-seen order. The description says what was measured (a run's
 * or a capacity search's workload, an attack's target and schedule), so runs of different workloads, like runs at
 * different time scales, are never overlaid. Works on charts as data, so it needs to know nothing about any
 * experiment.
 */
public final class Comparison {
    private Comparison() {}

    /** A result and where it came from, e.g. the label of the file it was read from ({@link dev.blocklab.Names#fileLabels}); one label per source. */
    public record Source(String label, ExperimentResult result) {
        public Source {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(result, "result");
        }
    }

    /**
     * A result named {@code comparison} holding a table of the sources and one overlaid chart per
     * (experiment, description, time scale, chart title) that appears in more than one source.
     */
    public static ExperimentResult of(List<Source> sources) {
        Map<String, List<Source>> byChart = new LinkedHashMap<>();
        Map<String, List<Chart>> charts = new LinkedHashMap<>();
        List<String> groups = new ArrayList<>();
        for (Source s : sources)
            for (Chart c : s.result().charts()) {
                String group = s.result().experiment() + "\u0000" + s.result().description() + "\u0000" + s.result().scale();
                if (!groups.contains(group)) groups.add(group);
                String key = group + "\u0000" + c.title() + "\u0000" + c.getClass().getSimpleName();
                byChart.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
                charts.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
            }
        List<Chart> merged = new ArrayList<>();
        for (String group : groups)
            for (var entry : charts.entrySet()) {
                if (!entry.getKey().startsWith(group + "\u0000")) continue;
                List<Source> from = byChart.get(entry.getKey());
                if (from.size() < 2) continue;
                ExperimentResult first = from.getFirst().result();
                // two groups of one experiment (capacity of two workloads): the title names the description too
                boolean shared = groups.stream().filter(g -> g.startsWith(first.experiment() + "\u0000")).count() > 1;
                String name = shared && first.description() != null ? first.experiment() + ", " + first.description() : first.experiment();
                merged.add(merge(name + (first.scale() == null ? "" : " (" + first.scale() + ")"), first.description(),
                        from, entry.getValue()));
            }
        List<List<String>> rows = new ArrayList<>();
        for (Source s : sources) {
            ExperimentResult r = s.result();
            rows.add(List.of(s.label(), r.experiment(), r.scale() == null ? "-" : r.scale(),
                    r.environment() == null ? "-" : r.environment().summary(), String.valueOf(r.charts().size())));
        }
        Table table = new Table(SOURCES_TABLE, List.of("source", "experiment", "scale", "machine", "charts"), rows);
        long count = sources.stream().map(Source::label).distinct().count();
        String description = merged.isEmpty()
                ? count + " sources with no chart of the same experiment, workload and time scale: none overlaid (each is shown below)"
                : "the same charts, experiment and time scale from " + count + " sources, overlaid";
        return new ExperimentResult(NAME, description, "mixed", null,
                List.of(), List.of(table), List.of("Charts that appear in only one source are shown with that source below, not here; "
                                + "runs of different workloads or targets (their descriptions differ) or at different time scales are not overlaid.",
                        "In each chart a name keeps its colour in every source; each source has its own shade (darker, lighter) and, for lines, its own dash.",
                        "Compare figures measured at the same time scale and on the same machine; the sources table says which."), merged);
    }

    /**
     * The labels of the sources a {@link #of comparison} result overlays (the first column of its sources table),
     * which prefix its series names; empty for any other result.
     */
    static List<String> sources(ExperimentResult result) {
        if (!result.experiment().equals(NAME)) return List.of();
        return result.tables().stream().filter(t -> t.title().equals(SOURCES_TABLE)).findFirst()
                .map(t -> t.rows().stream().map(List::getFirst).distinct().toList()).orElse(List.of());
    }

    private static final String NAME = "comparison";
    private static final String SOURCES_TABLE = "Sources compared";

    private static Chart merge(String experiment, String description, List<Source> sources, List<Chart> charts) {
        String title = experiment + ": " + charts.getFirst().title();
        List<String> sentences = new ArrayList<>();
        if (!sentence(charts.getFirst().caption()).isEmpty()) sentences.add(sentence(charts.getFirst().caption()));
        if (!sentence(description).isEmpty()) sentences.add("Each source measured " + sentence(description));
        sentences.add("Overlaid from: " + String.join(", ", sources.stream().map(Source::label).toList()) + ".");
        String caption = String.join(" ", sentences);
        if (charts.getFirst() instanceof Chart.LineChart first) {
            List<Series> series = new ArrayList<>();
            for (int i = 0; i < charts.size(); i++)
                for (Series s : ((Chart.LineChart) charts.get(i)).series())
                    series.add(new Series(sources.get(i).label() + ": " + s.name(), s.points()));
            return new Chart.LineChart(title, first.xAxis(), first.yAxis(), series, first.logX(), first.logY(), caption);
        }
        Chart.BarChart first = (Chart.BarChart) charts.getFirst();
        LinkedHashSet<String> categories = new LinkedHashSet<>();
        boolean log = false;
        for (Chart c : charts) {
            categories.addAll(((Chart.BarChart) c).categories());
            log |= ((Chart.BarChart) c).logY();
        }
        List<String> all = List.copyOf(categories);
        List<Bars> bars = new ArrayList<>();
        for (int i = 0; i < charts.size(); i++) {
            Chart.BarChart c = (Chart.BarChart) charts.get(i);
            for (Bars b : c.bars()) {
                List<Double> values = new ArrayList<>();
                for (String category : all) {
                    int at = c.categories().indexOf(category);
                    values.add(at < 0 ? null : b.values().get(at));
                }
                bars.add(new Bars(sources.get(i).label() + ": " + b.name(), values));
            }
        }
        return new Chart.BarChart(title, first.categoryAxis(), all, first.valueAxis(), bars, log, caption);
    }

    /** The text ending in a full stop, so that the next sentence does not run into it; empty stays empty. */
    private static String sentence(String text) {
        String t = text == null ? "" : text.strip();
        return t.isEmpty() || t.endsWith(".") ? t : t + ".";
    }
}
