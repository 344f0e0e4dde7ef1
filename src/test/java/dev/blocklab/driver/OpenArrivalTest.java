package dev.blocklab.driver;

import dev.blocklab.load.FakeClock;
import dev.blocklab.load.Pacer;
import dev.blocklab.load.SendLoop;
import dev.blocklab.workload.Arrival;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The driver's open schedules (constant, ramp, steps) at a time scale, against a fake clock: no sleeping. */
class OpenArrivalTest {
    private static final long US = 1_000L, MS = 1_000_000L, S = 1_000_000_000L;

    /** The intended send times (elapsed, on the fake clock) of every request of {@code arrival} at {@code /scale}. */
    private static List<Long> intended(Arrival.Open arrival, long scale, FakeClock clock) {
        List<Long> times = new ArrayList<>();
        SendLoop loop = InProcessDriver.openLoop(arrival, scale, clock, clock);
        SendLoop.Outcome o = loop.run(FakeClock.START, (i, intendedNanos, sentNanos) -> {
            assertThat(i).isEqualTo(times.size());
            assertThat(sentNanos).isGreaterThanOrEqualTo(intendedNanos);
            times.add(intendedNanos - FakeClock.START);
        });
        assertThat(o.sent()).isEqualTo(loop.requests()).isEqualTo(times.size());
        assertThat(o.unsent()).isZero();
        return times;
    }

    @Test
    void openLoop_ramp_speedsUpFromStartToEndRateAtTheTimeScale() {
        // 100/s..500/s over 2 s: the area under the ramp is 100 x 2 + 400 x 2 / 2 = 600 requests, sent in 20 ms at /100
        Arrival.Open ramp = new Arrival.Open(new Pacer.LinearRamp(100, 500, 2 * S), 2 * S);
        assertThat(ramp.requests()).isEqualTo(600);
        List<Long> t = intended(ramp, 100, new FakeClock());

        assertThat(t).hasSize(600).isSorted();
        assertThat(t.getFirst()).isZero();
        assertThat(t.getLast()).isLessThan(20 * MS);
        // gaps shrink from 1/100 s to 1/500 s, divided by 100: about 100 us at first, about 20 us at the end
        assertThat(t.get(1) - t.get(0)).isBetween(95 * US, 100 * US);
        assertThat(t.get(599) - t.get(598)).isBetween(20 * US, 21 * US);
        // half the time (10 ms scaled) holds the first 100 x 1 + 200 x 1 / 2 = 200 requests
        assertThat(t.stream().filter(x -> x < 10 * MS).count()).isEqualTo(200);
    }

    @Test
    void openLoop_steps_holdEachRateForItsStep() {
        // 100/s for 1 s, then 1000/s for 1 s: 1100 requests, 100 of them in the first 10 ms at /100
        Arrival.Open steps = new Arrival.Open(new Pacer.Steps(List.of(100.0, 1000.0), S), 2 * S);
        List<Long> t = intended(steps, 100, new FakeClock());

        assertThat(t).hasSize(1100);
        assertThat(t.stream().filter(x -> x < 10 * MS).count()).isEqualTo(100);
        assertThat(t.get(50) - t.get(49)).isEqualTo(100 * US);
        assertThat(t.get(1050) - t.get(1049)).isEqualTo(10 * US);
    }

    @Test
    void openLoop_lateModel_stillSendsEveryRequestWithItsIntendedTime() {
        // a model whose submit costs 3 ms against a 1 ms schedule: the loop falls far behind and sends everything
        FakeClock clock = new FakeClock();
        Arrival.Open constant = new Arrival.Open(1000, S);   // 1000 requests, 10 ms at /100: 10 us apart
        List<Long> intendedTimes = new ArrayList<>();
        SendLoop.Outcome o = InProcessDriver.openLoop(constant, 100, clock, clock).run(FakeClock.START, (i, intended, sent) -> {
            intendedTimes.add(intended - FakeClock.START);
            clock.now += 3 * MS;
        });
        assertThat(o.sent()).isEqualTo(1000);
        assertThat(o.unsent()).isZero();
        assertThat(intendedTimes.get(999)).isEqualTo(9_990 * US);
        assertThat(clock.now - FakeClock.START).isGreaterThanOrEqualTo(3 * S);
    }

    @Test
    void label_namesTheShape() {
        assertThat(new Arrival.Open(50, 10 * S).label()).isEqualTo("open 50/s for 10s");
        assertThat(new Arrival.Open(0.5, 120 * S).label()).isEqualTo("open 0.5/s for 120s");
        assertThat(new Arrival.Open(100.0 / 60, 60 * S).label()).as("100/m").startsWith("open 1.667/s for ");
        assertThat(new Arrival.Open(1.0 / 3600, 3600 * S).label()).as("1/h").startsWith("open 0.000278/s for ");
        assertThat(new Arrival.Open(2.5, 10 * S).label()).isEqualTo("open 2.5/s for 10s");
        assertThat(new Arrival.Open(new Pacer.LinearRamp(100, 5000, 20 * S), 20 * S).label()).isEqualTo("open 100/s..5000/s for 20s");
        assertThat(new Arrival.Open(new Pacer.Steps(List.of(100.0, 500.0), 5 * S), 10 * S).label()).isEqualTo("open 100/s,500/s every 5s for 10s");
        assertThat(new Arrival.Open(new Pacer.Steps(List.of(100.0, 500.0, 900.0), 5 * S), 10 * S).peakRatePerSecond()).isEqualTo(500.0);
        assertThat(new Arrival.Open(new Pacer.LinearRamp(100, 500, 20 * S), 10 * S).peakRatePerSecond()).isEqualTo(300.0);
    }
}
