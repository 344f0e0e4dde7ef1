package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code blocklab run --model reactor}: a framework variant through the one registry, and {@code blocklab models}. */
class RunFrameworkVariantTest {
    @TempDir Path tmp;

    private record Outcome(int code, String out, String err) {}

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void run_variantAndModelOnTheFrameworksWorkload_reportsBoth() {
        Outcome o = run("run", "--workload", "frameworks", "--model", "reactor", "--model", "virtual", "--requests", "8",
                "--time-scale", "100", "--warmups", "0", "--repeats", "1", "--quiet", "--save", tmp.resolve("r.jsonl").toString());
        assertThat(o.code()).as(o.err()).isZero();
        assertThat(o.out()).contains("reactor").contains("virtual").contains("frameworks");
    }

    @Test
    void run_variantOnAnotherWorkload_exitsTwoWithOneLine() {
        Outcome o = run("run", "--workload", "hundred-calls", "--model", "fixed:4", "--model", "reactor", "--save", tmp.resolve("r.jsonl").toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("model 'reactor' cannot run workload 'hundred-calls'").doesNotContain("\tat ");
        assertThat(o.err().lines().filter(l -> l.startsWith("blocklab:")).count()).isEqualTo(1);
    }

    @Test
    void models_listsEveryEntryWithTheColumnsItsHelpNames() {
        Outcome o = run("models");
        assertThat(o.code()).isZero();
        String header = o.out().lines().findFirst().orElseThrow();
        assertThat(header).contains("model").contains("kind").contains("runs here").contains("what it does");
        assertThat(o.out()).contains("fixed:N").contains("invokeall:N").contains("reactor").contains("frameworks-virtual")
                .contains("jaxrs-sequential");
        assertThat(o.out().lines().count()).isEqualTo(1 + dev.blocklab.registry.Registry.all().size());
        assertThat(run("models", "--help").out()).contains("'kind'").contains("'runs here'");
    }
}
