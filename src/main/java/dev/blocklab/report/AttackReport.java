package dev.blocklab.report;

import dev.blocklab.result.AttackResult;

/** Renders an attack's result as text; one small class per format, deterministic for a given result. */
@FunctionalInterface
public interface AttackReport {
    String render(AttackResult result);
}
