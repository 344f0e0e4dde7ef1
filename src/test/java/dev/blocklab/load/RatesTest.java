package dev.blocklab.load;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RatesTest {
    private static final long S = 1_000_000_000L;

    @Test
    void parse_constantRampAndSteps() {
        assertThat(Rates.parse("1000/s", 10 * S, 0)).isEqualTo(new Pacer.Constant(1000));
        assertThat(Rates.parse("600/m", 10 * S, 0)).isEqualTo(new Pacer.Constant(10));
        assertThat(Rates.parse("100/s..5000/s", 30 * S, 0)).isEqualTo(new Pacer.LinearRamp(100, 5000, 30 * S));
        assertThat(Rates.parse("100/s,500/s,1000/s", 30 * S, 5 * S)).isEqualTo(new Pacer.Steps(List.of(100.0, 500.0, 1000.0), 5 * S));
        assertThat(Rates.parse("100,200", 10 * S, 0)).isEqualTo(new Pacer.Steps(List.of(100.0, 200.0), 5 * S));
    }

    @Test
    void parse_badRates_nameTheFlag() {
        for (String bad : new String[]{"fast", "0/s", "-5/s", "100/s..", "..5/s", "1/s,,2/s", "1/h"})
            assertThatThrownBy(() -> Rates.parse(bad, S, 0)).as(bad).hasMessageStartingWith("--rate: '" + bad + "'");
        assertThatThrownBy(() -> Rates.parse("100/s", S, S)).hasMessageStartingWith("--step");
        assertThatThrownBy(() -> Rates.parse("1/s..2/s", S, S)).hasMessageStartingWith("--step");
    }
}
