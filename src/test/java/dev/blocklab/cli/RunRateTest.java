package dev.blocklab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code run --rate} with a ramp and with steps, end to end through {@code Main} at time scale 1/100. */
class RunRateTest {
    @TempDir Path tmp;

    private JsonNode run(String rate, String... more) throws Exception {
        StringWriter out = new StringWriter(), err = new StringWriter();
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "--workload", "hundred-calls",
                "--model", "virtual", "--time-scale", "100", "--warmups", "0", "--repeats", "1", "--format", "json",
                "--quiet", "--save", tmp.resolve("r.jsonl").toString(), "--rate", rate));
        args.addAll(java.util.List.of(more));
        int code = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        return new ObjectMapper().readTree(out.toString()).get("rows").get(0);
    }

    @Test
    void run_rampRate_sendsTheAreaUnderTheRamp() throws Exception {
        // 100/s..500/s over 2 s: 100 x 2 + 400 x 2 / 2 = 600 requests, sent in 20 ms at /100
        JsonNode row = run("100/s..500/s", "--duration", "2s");
        assertThat(row.get("requests").asLong()).isEqualTo(600);
        assertThat(row.get("successes").asLong()).isEqualTo(600);
        assertThat(row.get("arrival").asText()).isEqualTo("open 100/s..500/s for 2s");
    }

    @Test
    void run_modelsSeparatedByCommas_runEach() throws Exception {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int code = Main.execute(new String[] {"run", "--workload", "hundred-calls", "--model", "fixed:4,virtual", "--model", "sequential",
                "--requests", "8", "--time-scale", "100", "--warmups", "0", "--repeats", "1", "--format", "json", "--quiet",
                "--save", tmp.resolve("m.jsonl").toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(err.toString()).isZero();
        assertThat(new ObjectMapper().readTree(out.toString()).get("rows").findValuesAsText("model"))
                .containsExactly("fixed:4", "virtual", "sequential");
    }

    @Test
    void run_perMinuteRate_labelledToThreeDecimals() throws Exception {
        JsonNode row = run("100/m", "--duration", "6s");
        assertThat(row.get("arrival").asText()).isEqualTo("open 1.667/s for 6s");
    }

    @Test
    void run_stepRates_holdEachForItsStep() throws Exception {
        // 100/s for 1 s, 300/s for 1 s, then 300/s to the end of 3 s: 100 + 300 + 300 = 700 requests
        JsonNode row = run("100/s,300/s", "--step", "1s", "--duration", "3s");
        assertThat(row.get("requests").asLong()).isEqualTo(700);
        assertThat(row.get("arrival").asText()).isEqualTo("open 100/s,300/s every 1s for 3s");
    }
}
