package dev.blocklab.misuse;

import dev.blocklab.audit.Rule;

import java.util.Optional;

/** The shared part of a showcase case: its name, and for a wrong one the rule and the line it blocks on. */
abstract class Case implements MisuseCase {
    private final String family;
    private final String description;
    private final Rule rule;     // null for a correct case
    volatile int line = -1;

    Case(String family, boolean wrong, Rule rule, String wrongWay, String rightWay) {
        this.family = family;
        this.rule = wrong ? rule : null;
        this.description = wrong ? wrongWay : rightWay;
    }

    final boolean wrong() { return rule != null; }

    @Override public final String name() { return family + (wrong() ? " (wrong)" : " (correct)"); }

    @Override public final String description() { return description; }

    @Override public final Optional<Expected> expected() {
        return wrong() ? Optional.of(new Expected(rule, getClass().getName(), line)) : Optional.empty();
    }

    static void sleep(long nanos) {
        try {
            Thread.sleep(java.time.Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
