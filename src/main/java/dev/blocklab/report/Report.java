package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;

/** Renders an experiment's result as text in one format. Pure: same result, same text. */
@FunctionalInterface
public interface Report {
    String render(ExperimentResult result);
}
