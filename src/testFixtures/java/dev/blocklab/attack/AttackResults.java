package dev.blocklab.attack;

import dev.blocklab.result.AttackResult;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.result.LatencyMillis;
import org.HdrHistogram.Histogram;

import java.util.TreeMap;

/** Deterministic results for report and threshold tests. */
public final class AttackResults {
    private AttackResults() {}

    /** 1000 requests at 100/s: latencies 1..1000 ms from intended, service 0.5 ms less; 990 x 200, 10 errors. */
    public static AttackResult sample(long lateSends, long unsent) { return sample(lateSends, unsent, 0); }

    /** {@link #sample(long, long)} with {@code cutOff} of its requests cut off at the end. */
    public static AttackResult sample(long lateSends, long unsent, long cutOff) {
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram service = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        for (long ms = 1; ms <= 1000; ms++) {
            latency.recordValue(ms * 1_000_000L);
            service.recordValue(ms * 1_000_000L - 500_000L);
            delay.recordValue(500_000L + lateSends * 10_000_000L * (ms % 100 == 0 ? 1 : 0));
        }
        TreeMap<Integer, Long> codes = new TreeMap<>();
        codes.put(200, 985L);
        codes.put(503, 5L);
        codes.put(0, 10L);
        TreeMap<String, Long> errors = new TreeMap<>();
        errors.put("Get http://127.0.0.1:8080/: Connection refused: /127.0.0.1:8080", 10L);
        errors.put("Get http://127.0.0.1:8080/: status 503", 5L);
        return new AttackResult("GET http://127.0.0.1:8080/ at 100/s for 10s", 1000, unsent, 100.1, 97.25,
                10_128_500_000L, 9_990_000_000L, 138_500_000L, LatencyMillis.of(latency), LatencyMillis.of(service),
                2_955, 0, 985, 0.985, codes, errors, lateSends, 1_000_000L, 2_345_678L, false, cutOff, latency, service,
                InstrumentHealth.assess(1000 + unsent, unsent, 985, LatencyMillis.of(latency),
                        // every request left on time, so its latency from the send is its service time
                        new InstrumentHealth.OwnDelays(LatencyMillis.of(delay), LatencyMillis.EMPTY, LatencyMillis.of(delay),
                                LatencyMillis.EMPTY, LatencyMillis.of(service)),
                        new InstrumentHealth.Measured(0.25, 1.5, 0.42, 0.3, 0.65, 2)), 0);
    }

    /**
     * A dead target: {@code requests} at 5/s, every connection refused in about 1 ms, while the attacker was late
     * (its first send 13 ms, the rest 2 ms: over the 1 ms allowance) and left {@code unsent} requests unsent.
     */
    public static AttackResult deadTarget(long requests, long unsent) {
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram service = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        for (long i = 0; i < requests; i++) {
            long late = i == 0 ? 13_000_000L : 2_000_000L;
            delay.recordValue(late);
            service.recordValue(1_200_000L);
            latency.recordValue(late + 1_200_000L);
        }
        TreeMap<Integer, Long> codes = new TreeMap<>();
        codes.put(0, requests);
        TreeMap<String, Long> errors = new TreeMap<>();
        errors.put("Get http://127.0.0.1:1/: finishConnect(..) failed with error(-111): Connection refused", requests);
        return new AttackResult("GET http://127.0.0.1:1/ at 5/s for 1s", requests, unsent, 5.0, 0,
                requests * 200_000_000L, requests * 200_000_000L, 1_000_000L, LatencyMillis.of(latency), LatencyMillis.of(service),
                0, 0, 0, 0, codes, errors, requests, 1_000_000L, 13_000_000L, false, 0, latency, service,
                InstrumentHealth.assess(requests + unsent, unsent, 0, LatencyMillis.of(latency),
                        InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)),
                        new InstrumentHealth.Measured(2.2, 8.9, 0.2, 0.04, 0.93, 2)), 0);
    }

    /** An attack stopped in its warm-up: no request of the measured schedule was sent. */
    public static AttackResult stoppedInWarmUp() {
        Histogram empty = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        return new AttackResult("GET http://127.0.0.1:8080/ at 100/s for 10s after a 3s warm-up (discarded)", 0, 0, 0, 0,
                0, 0, 0, LatencyMillis.EMPTY, LatencyMillis.EMPTY, 0, 0, 0, 0, new TreeMap<>(), new TreeMap<>(), 0, 1_000_000L, 0,
                true, 0, empty, empty, InstrumentHealth.assess(0, 0, 0, LatencyMillis.EMPTY,
                        InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.EMPTY), InstrumentHealth.Measured.none(2)), 0);
    }

    /** {@code ratePerSecond} for 10 s, every response 200 in 1 ms, a punctual attacker. */
    public static AttackResult perfect(double ratePerSecond) {
        Histogram latency = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        Histogram delay = new Histogram(AttackRecorder.HIGHEST_TRACKABLE_NANOS, 3);
        long n = Math.round(ratePerSecond * 10);
        for (long i = 0; i < n; i++) {
            latency.recordValue(1_000_000L);
            delay.recordValue(10_000L);
        }
        TreeMap<Integer, Long> codes = new TreeMap<>();
        codes.put(200, n);
        return new AttackResult("GET http://127.0.0.1:8080/ at " + ratePerSecond + "/s for 10s", n, 0, ratePerSecond, ratePerSecond,
                10_001_000_000L, 10_000_000_000L, 1_000_000L, LatencyMillis.of(latency), LatencyMillis.of(latency),
                n * 3, 0, n, 1.0, codes, new TreeMap<>(), 0, 1_000_000L, 10_000L, false, 0, latency, latency,
                InstrumentHealth.assess(n, 0, LatencyMillis.of(latency), InstrumentHealth.OwnDelays.sendLatenessOnly(LatencyMillis.of(delay)),
                        InstrumentHealth.Measured.none(2)), 0);
    }
}
