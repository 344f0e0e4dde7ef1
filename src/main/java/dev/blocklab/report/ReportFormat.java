package dev.blocklab.report;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** The output formats, by name. */
public enum ReportFormat {
    TEXT(TextReport::new),
    JSON(JsonReport::new),
    CSV(CsvReport::new),
    /** One self-contained page without a timestamp; use {@link HtmlReport} directly to add one or several results. */
    HTML(() -> new HtmlReport(null));

    private final Supplier<Report> factory;

    ReportFormat(Supplier<Report> factory) { this.factory = factory; }

    public Report create() { return factory.get(); }

    /** Parses {@code text}, {@code json}, {@code csv} or {@code html}; throws naming the choices otherwise. */
    public static ReportFormat parse(String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown format '" + name + "' (choose one of "
                    + Arrays.stream(values()).map(f -> f.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")) + ")");
        }
    }
}
