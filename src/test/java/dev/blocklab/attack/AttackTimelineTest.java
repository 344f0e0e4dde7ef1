package dev.blocklab.attack;

import dev.blocklab.load.Pacer;
import dev.blocklab.workload.Arrival;
import dev.blocklab.result.AttackInterval;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AttackTimelineTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;

    private static Hit hit(long index, long intendedNanos, long sentNanos, long latencyNanos, String error) {
        return new Hit(index, 0, intendedNanos, sentNanos, latencyNanos, latencyNanos - (sentNanos - intendedNanos),
                error == null ? 200 : 0, 2, 0, error);
    }

    @Test
    void intervals_bucketSendsByTheirSendAndCompletionsByTheirEnd() {
        // 10/s for 2 s: 10 scheduled per 1 s interval
        AttackTimeline t = new AttackTimeline(new Arrival.Open(new Pacer.Constant(10), 2 * S), S);
        t.onHit(hit(0, 0, 0, 100 * MS, null));                       // sent and done in interval 0
        t.onHit(hit(1, 900 * MS, 950 * MS, 300 * MS, null));         // sent in 0, done at 1.2 s in 1
        t.onHit(hit(2, 1_500 * MS, 1_500 * MS, 50 * MS, "refused")); // sent and failed in 1
        List<AttackInterval> in = t.intervals();
        assertThat(in).hasSize(2);
        assertThat(in.get(0).scheduled()).isEqualTo(10);
        assertThat(in.get(1).scheduled()).isEqualTo(10);
        assertThat(in.get(0).sent()).isEqualTo(2);
        assertThat(in.get(1).sent()).isEqualTo(1);
        assertThat(in.get(0).completed()).isEqualTo(1);
        assertThat(in.get(1).completed()).isEqualTo(2);
        assertThat(in.get(1).errors()).isEqualTo(1);
        assertThat(in.get(0).maxMillis()).isBetween(99.0, 101.0);
        assertThat(in.get(1).maxMillis()).isBetween(297.0, 303.0);
    }

    @Test
    void intervals_emptyIntervalHasNoPercentilesAndClosedModelNoSchedule() {
        AttackTimeline t = new AttackTimeline(new Arrival.Closed(2, 3 * S), S);
        t.onHit(hit(0, 2_100 * MS, 2_100 * MS, 10 * MS, null));
        List<AttackInterval> in = t.intervals();
        assertThat(in).hasSize(3);
        assertThat(in.get(0).p50Millis()).isNull();
        assertThat(in.get(0).scheduled()).isNull();
        assertThat(in.get(2).completed()).isEqualTo(1);
    }

    @Test
    void intervals_ofAStoppedAttack_endAtTheStop_withNoPhantomIntervals() {
        // 200/s planned for 60 s, stopped after 1.5 s: no intervals of "scheduled 200, sent 0" up to 60 s
        AttackTimeline t = new AttackTimeline(new Arrival.Open(new Pacer.Constant(200), 60 * S), S);
        t.onHit(hit(0, 0, 0, 10 * MS, null));
        t.onHit(hit(1, 1_400 * MS, 1_400 * MS, 10 * MS, null));
        assertThat(t.intervals(0)).hasSize(2);
        assertThat(t.intervals(3 * S)).hasSize(3);
        assertThat(t.intervals()).as("not stopped: the whole schedule").hasSize(60);
        // the last interval counts as scheduled only what fell due before the stop: 81 of 1.0-1.4 s, not 200
        assertThat(t.intervals(1_400 * MS + 1).getLast().scheduled()).isEqualTo(81);
        assertThat(t.intervals(1_400 * MS + 1).getFirst().scheduled()).isEqualTo(200);
    }
}
