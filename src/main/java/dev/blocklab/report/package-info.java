/**
 * Output formats and the views they lay results out with. Every format is one small class behind the one
 * interface {@link dev.blocklab.report.Report}: for an experiment's result text, JSON, CSV and
 * {@link dev.blocklab.report.HtmlReport} (one self-contained page that draws each result's
 * {@link dev.blocklab.result.Chart}s as inline SVG), registered in {@link dev.blocklab.report.ReportFormat}; for an
 * attack's result vegeta's text layout, JSON and HdrHistogram's percentile spectrum, registered in
 * {@link dev.blocklab.report.AttackReportFormat}. Reports only see immutable results, and are deterministic for
 * the same results: {@link java.util.Locale#ROOT} numbers, sorted keys, no clock of their own (a page's
 * timestamp is passed in). {@link dev.blocklab.report.RunTables} and {@link dev.blocklab.report.RunCharts} are the
 * standard tables and charts over runs; {@link dev.blocklab.report.ResultsFile} is the JSON Lines file results
 * stream to and {@code blocklab report} reads back; {@link dev.blocklab.report.Comparison} overlays the same charts
 * from several saved runs. The formats are described in docs/report.md.
 */
package dev.blocklab.report;
