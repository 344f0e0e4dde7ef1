package dev.blocklab.report;

/**
 * Renders a result as text in one format: the one interface of every output format, whether of an experiment's
 * result ({@link ReportFormat}: text, JSON, CSV, HTML) or of an attack's ({@link AttackReportFormat}: vegeta's
 * text layout, JSON, HdrHistogram's percentile spectrum). Each format is one small class. Pure and deterministic:
 * the same result gives the same text ({@code Locale.ROOT}, a fixed key order, timestamps passed in), which is
 * what lets every format be tested against a golden file.
 *
 * @param <R> the result it renders: {@link dev.blocklab.result.ExperimentResult} or {@link dev.blocklab.result.AttackResult}
 */
@FunctionalInterface
public interface Report<R> {
    String render(R result);
}
