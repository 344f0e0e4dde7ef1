package dev.blocklab.report;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.blocklab.result.RunResult;

/**
 * One row of a seed experiment: a run beside the article's figure.
 *
 * @param label         what the row is, e.g. {@code fixed:8} or {@code calls=1000}
 * @param run           what was measured (its fields appear at the row's top level in JSON)
 * @param articleMillis the article's figure in milliseconds at full scale, or null where it gave none
 * @param why           one line on why measured, predicted and article differ
 */
public record SeedRow(String label, @JsonUnwrapped RunResult run, Double articleMillis, String why) {}
