package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code blocklab run --model reactor}: a framework variant through the one registry, and {@code blocklab models}. */
class RunFrameworkVariantTest {
    @TempDir Path tmp;

    @Test
    void run_variantAndModelOnTheFrameworksWorkload_reportsBoth() {
        Cli.Run o = Cli.run("run", "--workload", "frameworks", "--model", "reactor", "--model", "virtual", "--requests", "8",
                "--time-scale", "100", "--warmups", "0", "--repeats", "1", "--quiet", "--save", tmp.resolve("r.jsonl").toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("reactor").contains("virtual").contains("frameworks");
    }

    @Test
    void run_variantOnAnotherWorkload_exitsTwoWithOneLine() {
        Cli.Run o = Cli.run("run", "--workload", "hundred-calls", "--model", "fixed:4", "--model", "reactor", "--save", tmp.resolve("r.jsonl").toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("model 'reactor' cannot run workload 'hundred-calls'").doesNotContain("\tat ");
        assertThat(o.err().lines().filter(l -> l.startsWith("blocklab:")).count()).isEqualTo(1);
    }

    @Test
    void models_listsEveryEntryWithTheColumnsItsHelpNames() {
        Cli.Run o = Cli.run("models");
        assertThat(o.exit()).isZero();
        String header = o.out().lines().findFirst().orElseThrow();
        assertThat(header).contains("model").contains("kind").contains("runs here").contains("what it does");
        assertThat(o.out()).contains("fixed:N").contains("invokeall:N").contains("reactor").contains("frameworks-virtual")
                .contains("jaxrs-sequential");
        // one line per entry; a long description continues on indented lines
        assertThat(o.out().lines().filter(l -> !l.startsWith(" ")).count()).isEqualTo(1 + dev.blocklab.registry.Registry.all().size());
        assertThat(Cli.run("models", "--help").out()).contains("'kind'").contains("'runs here'");
    }
}
