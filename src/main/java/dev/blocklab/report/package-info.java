/**
 * Output formats. Each format is one small class behind {@link dev.blocklab.report.Report}, registered in
 * {@link dev.blocklab.report.ReportFormat}: text, JSON, CSV, and {@link dev.blocklab.report.HtmlReport}, one
 * self-contained page that draws each result's {@link dev.blocklab.result.Chart}s as inline SVG. Reports only see
 * immutable results, and are deterministic for the same results: {@link java.util.Locale#ROOT} numbers, sorted
 * keys, no clock of their own (a page's timestamp is passed in). {@link dev.blocklab.report.Comparison} overlays
 * the same charts from several saved runs. The format is described in docs/report.md.
 */
package dev.blocklab.report;
