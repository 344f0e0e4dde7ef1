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
    void parse_stepsThatDoNotFitTheDuration_areRefused() {
        // 3 rates held 2 s each in 3 s: the third would start at 4 s and never be sent
        assertThatThrownBy(() -> Rates.parse("10/s,20/s,30/s", 3 * S, 2 * S)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--step: 3 rates held 2s each need a duration over 4s, and the duration is 3s: '30/s' would never be sent"
                        + " (lengthen the duration or shorten --step)");
        assertThatThrownBy(() -> Rates.parse("10,20,30,40", 3 * S, 2 * S)).hasMessageContaining(": '30', '40' would never be sent");
        assertThat(Rates.parse("10/s,20/s,30/s", 4 * S + 1, 2 * S)).isEqualTo(new Pacer.Steps(List.of(10.0, 20.0, 30.0), 2 * S));
        assertThat(Rates.parse("10/s,20/s,30/s", 3 * S, 0)).as("no --step: the duration divided").isEqualTo(new Pacer.Steps(List.of(10.0, 20.0, 30.0), S));
    }

    @Test
    void parse_badRates_nameTheFlag() {
        for (String bad : new String[]{"fast", "0/s", "-5/s", "100/s..", "..5/s", "1/s,,2/s", "1/h"})
            assertThatThrownBy(() -> Rates.parse(bad, S, 0)).as(bad).hasMessageStartingWith("--rate: '" + bad + "'");
        assertThatThrownBy(() -> Rates.parse("100/s", S, S)).hasMessageStartingWith("--step");
        assertThatThrownBy(() -> Rates.parse("1/s..2/s", S, S)).hasMessageStartingWith("--step");
    }
    @Test
    void perSecond_oneSyntaxForTheCommandLineAndWorkloadFiles() {
        assertThat(Rates.perSecond("200/s")).isEqualTo(200.0);
        assertThat(Rates.perSecond(" 200 /s ")).isEqualTo(200.0);
        assertThat(Rates.perSecond("30/m")).isEqualTo(0.5);
        assertThat(Rates.perSecond("500")).isEqualTo(500.0);
        assertThat(Rates.perSecond("0.5")).isEqualTo(0.5);
        assertThat(Rates.perSecond("1e3/s")).isEqualTo(1000.0);
        assertThat(Rates.perSecond("2e7/s")).as("not bounded: callers that send bound it").isEqualTo(2e7);
        for (String bad : new String[]{"fast", "", "/s", "0/s", "-5/s", "NaN", "Infinity/s", "1e999", "0x10", "5d", "1/h", "1..2"})
            assertThatThrownBy(() -> Rates.perSecond(bad)).as("'%s'", bad).isInstanceOf(NumberFormatException.class);
    }

    @Test
    void parse_overTheHighestRate_namesThePart() {
        assertThatThrownBy(() -> Rates.parse("100/s..2000000/s", S, 0))
                .hasMessage("--rate: '2000000/s' is over 1000000/s, the highest rate blocklab sends at");
    }

    @Test
    void number_wholeWithThousandsFrom100OrWhole_elseOneDecimal_asEveryReportWritesARate() {
        assertThat(Rates.number(1000)).isEqualTo("1,000");
        assertThat(Rates.number(27598.4)).isEqualTo("27,598");
        assertThat(Rates.number(175.9)).isEqualTo("176");
        assertThat(Rates.number(20)).isEqualTo("20");
        assertThat(Rates.number(21.94)).isEqualTo("21.9");
        assertThat(Rates.number(0.5)).isEqualTo("0.5");
        // a rate computed a hair under a whole number (3 threads / 1 s as 2.9999999) reads whole, not 3.0
        assertThat(Rates.number(3 * (1 - 1e-9))).isEqualTo("3");
        // one decimal stays one decimal when it rounds to a whole number: 1.96 x 510 ms must still read near 1.0
        assertThat(Rates.number(1.96)).isEqualTo("2.0");
        assertThat(Rates.number(20.04)).isEqualTo("20.0");
        // a rate above zero never reads 0
        assertThat(Rates.number(0.04)).isEqualTo("0.04");
        assertThat(Rates.number(0.0123)).isEqualTo("0.012");
        assertThat(Rates.number(Double.POSITIVE_INFINITY)).isEqualTo("unbounded");
    }
}
