package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/** The output formats, by name. */
public enum ReportFormat {
    TEXT(TextReport::new),
    JSON(width -> new JsonReport()),
    CSV(width -> new CsvReport()),
    /** One self-contained page without a timestamp; use {@link HtmlReport} directly to add one or several results. */
    HTML(width -> new HtmlReport(null));

    /** The text width of {@link #create()}: every column, nothing wrapped ({@code --wide}). */
    public static final int WIDE = TextReport.WIDE;

    private final IntFunction<Report<ExperimentResult>> factory;

    ReportFormat(IntFunction<Report<ExperimentResult>> factory) { this.factory = factory; }

    /** Every column of every table ({@code --wide} for text). */
    public Report<ExperimentResult> create() { return factory.apply(WIDE); }

    /**
     * A report whose text lines fit {@code textWidthColumns} (at least 40) where they can, keeping each table's
     * essential columns; {@link #WIDE} for every column. JSON, CSV and HTML always keep everything.
     */
    public Report<ExperimentResult> create(int textWidthColumns) { return factory.apply(textWidthColumns); }

    /** Parses {@code text}, {@code json}, {@code csv} or {@code html}; throws naming the choices otherwise. */
    public static ReportFormat parse(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown format '" + name + "'" + dev.blocklab.Names.didYouMean(name,
                    Arrays.stream(values()).map(f -> f.name().toLowerCase(Locale.ROOT)).toList()) + " (choose one of "
                    + Arrays.stream(values()).map(f -> f.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")) + ")");
        }
    }
}
