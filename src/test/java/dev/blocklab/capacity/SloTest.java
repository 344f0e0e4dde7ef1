package dev.blocklab.capacity;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SloTest {
    static Measurement at(double rate, double p99Millis, double success) {
        return new Measurement(rate, rate, 100, success, p99Millis / 2, p99Millis * 0.8, p99Millis, p99Millis * 1.5, 100, 1024, 10, -1, false, "", null);
    }

    @Test
    void parse_latencyAndSuccess() {
        Slo p99 = Slo.parse("p99<=550ms");
        assertThat(p99.metric()).isEqualTo("p99");
        assertThat(p99.limit()).isEqualTo(550.0);
        Slo success = Slo.parse("success >= 99.9%");
        assertThat(success.metric()).isEqualTo("success");
        assertThat(success.limit()).isEqualTo(0.999, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Slo.parse("p50<=1s").limit()).isEqualTo(1000.0);
    }

    @Test
    void breach_aSuccessShare_onlyWhenTheRunShowsItBelowTheBound() {
        Slo slo = Slo.parse("success>=97%");
        // one failure in 20 requests (95 %) cannot show a share below 97 %: a short step's noise, not a breach
        assertThat(slo.breach(new Measurement(10, 10, 20, 0.95, 1, 1, 1, 1, 1, 1, 1, -1, false, "", null))).isEmpty();
        // 50 in 1,000 can: even the interval's upper end is below
        assertThat(slo.breach(new Measurement(10, 10, 1000, 0.95, 1, 1, 1, 1, 1, 1, 1, -1, false, "", null)))
                .contains("success 95.00 % < 97 % (of 1,000 requests; the upper end of its 95 % interval 96.02 %)");
        // a share met only through the interval says so; one met outright, or broken, does not
        assertThat(slo.metOnlyByTheInterval(new Measurement(10, 10, 20, 0.95, 1, 1, 1, 1, 1, 1, 1, -1, false, "", null)))
                .contains("success 95.0 % of 20 requests, below 97 % but too few to show it (its 95 % interval reaches 98.9 %)");
        assertThat(slo.metOnlyByTheInterval(new Measurement(10, 10, 20, 1, 1, 1, 1, 1, 1, 1, 1, -1, false, "", null))).isEmpty();
        assertThat(slo.metOnlyByTheInterval(new Measurement(10, 10, 1000, 0.95, 1, 1, 1, 1, 1, 1, 1, -1, false, "", null))).isEmpty();
        // nothing completed is no success
        assertThat(slo.breach(new Measurement(10, 10, 0, 0, 1, 1, 1, 1, 1, 1, 1, -1, false, "", null))).contains("success: no request completed");
        assertThat(Slo.successUpperBound(1, 10)).isEqualTo(1.0);
        assertThat(Slo.successUpperBound(0, 1000)).isBetween(0.0, 0.003);
        assertThat(Slo.successUpperBound(0.5, 0)).isEqualTo(1.0);   // nothing measured shows nothing
    }

    @Test
    void parse_badObjective_oneLineNamingIt() {
        assertThatThrownBy(() -> Slo.parse("p98<=1s")).hasMessageContaining("'p98<=1s' is not of the form");
        assertThatThrownBy(() -> Slo.parse("p99<=fast")).hasMessageStartingWith("SLO 'p99<=fast'");
        assertThatThrownBy(() -> Slo.parse("success>=120%")).hasMessageContaining("(0, 100]");
    }

    @Test
    void breach_namesTheFigureAndTheBound() {
        assertThat(Slo.parse("p99<=550ms").breach(at(10, 500, 1))).isEmpty();
        assertThat(Slo.parse("p99<=550ms").breach(at(10, 600, 1))).contains("p99 600.0 ms > 550 ms");
        assertThat(Slo.parse("p999<=700ms").breach(at(10, 500, 1))).contains("p999 750.0 ms > 700 ms");
        assertThat(Slo.parse("success>=99.9%").breach(at(10, 1, 0.99))).contains("success 99.00 % < 99.9 % (of 100 requests; the upper end of its 95 % interval 99.78 %)");
        assertThat(Slo.parse("success>=99.9%").breach(at(10, 1, 0.999))).isEmpty();
    }
}
