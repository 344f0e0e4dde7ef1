/**
 * Output formats. Each format is one small class behind {@link dev.blocklab.report.Report}, registered in
 * {@link dev.blocklab.report.ReportFormat}. Reports only see immutable results, and are deterministic for the
 * same results: {@link java.util.Locale#ROOT} numbers, sorted keys, no clock of their own.
 */
package dev.blocklab.report;
