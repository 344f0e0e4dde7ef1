package dev.blocklab.attack;

/** Renders an attack's result as text; one small class per format, deterministic for a given result. */
@FunctionalInterface
public interface AttackReport {
    String render(AttackResult result);
}
