package dev.blocklab.cli;

import picocli.CommandLine.IExitCodeGenerator;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that measures and may audit while it measures ({@code run}, {@code reproduce}): its exit code is the
 * audit's, 1 when a {@code --fail-if} condition held ({@link AuditOptions#exitCode()}), else 0.
 */
abstract class MeasuringCommand implements Runnable, IExitCodeGenerator {
    @Spec CommandSpec spec;

    /** The command's audit options (a mixin of the command itself, so its options keep their place). */
    abstract AuditOptions audit();

    @Override public final int getExitCode() { return audit().exitCode(); }
}
