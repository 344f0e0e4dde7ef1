package dev.blocklab.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The shard filter as tables, and the send loop walking a shard on a fake clock. */
class ShardTest {
    private static final long MS = 1_000_000L, S = 1_000_000_000L;

    @Test
    void ownedAmong_countsEveryNthRequest() {
        Shard s = new Shard(2, 4);
        long[][] table = {{0, 0}, {2, 0}, {3, 1}, {6, 1}, {7, 2}, {10, 2}, {11, 3}, {1000, 250}};
        for (long[] row : table) assertThat(s.ownedAmong(row[0])).as("of %d", row[0]).isEqualTo(row[1]);
        long sum = 0;
        for (int i = 0; i < 4; i++) sum += new Shard(i, 4).ownedAmong(1003);
        assertThat(sum).as("the shares add up to the whole").isEqualTo(1003);
        assertThat(s.owns(6)).isTrue();
        assertThat(s.owns(7)).isFalse();
    }

    @Test
    void parse_acceptsIndexOverCount_andRefusesWithOneLine() {
        assertThat(Shard.parse(" 3/4 ")).isEqualTo(new Shard(3, 4));
        assertThatThrownBy(() -> Shard.parse("4/4")).hasMessage("--shard: the index must be 0..3 (0-based) for 4 shards, got 4");
        assertThatThrownBy(() -> Shard.parse("1-4")).hasMessageStartingWith("--shard: '1-4' is not INDEX/COUNT");
        assertThatThrownBy(() -> Shard.parse("0/0")).hasMessageStartingWith("--shard: the count must be 1..");
    }

    @Test
    void split_sharesOfAShard_partitionItsRequestsInTurn() {
        Shard s = new Shard(1, 3);
        List<List<Long>> shares = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Shard share = s.split(i, 2);
            List<Long> owned = new ArrayList<>();
            for (long k = 0; k < 30; k++) if (share.owns(k)) owned.add(k);
            shares.add(owned);
        }
        assertThat(shares.get(0)).containsExactly(1L, 7L, 13L, 19L, 25L);
        assertThat(shares.get(1)).containsExactly(4L, 10L, 16L, 22L, 28L);
        assertThat(s.split(0, 2).ownedAmong(1003) + s.split(1, 2).ownedAmong(1003)).isEqualTo(s.ownedAmong(1003));
        assertThat(Shard.WHOLE.split(0, 1)).isEqualTo(Shard.WHOLE);
        assertThat(new Shard(0, Shard.MAX_COUNT).split(1, 2)).as("a share may go past --shard's own cap")
                .isEqualTo(new Shard(Shard.MAX_COUNT, 2 * Shard.MAX_COUNT));
        assertThatThrownBy(() -> s.split(2, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Shard.parse("0/10001")).hasMessage("--shard: the count must be 1..10000, got 10001");
    }

    @Test
    void sendLoop_shardsTogether_sendTheGlobalRampExactlyOnce() {
        Pacer ramp = new Pacer.LinearRamp(100, 1000, S);
        TreeSet<Long> all = new TreeSet<>();
        long unsent = 0;
        for (int i = 0; i < 3; i++) {
            FakeClock clock = new FakeClock();
            List<long[]> sends = new ArrayList<>();
            SendLoop.Outcome o = new SendLoop(ramp, S, MS, clock, clock, () -> false, new Shard(i, 3))
                    .run(clock.now, (k, intended, sent) -> sends.add(new long[]{k, intended}));
            for (long[] s : sends) {
                assertThat(s[0] % 3).isEqualTo(i);
                assertThat(all.add(s[0])).isTrue();
            }
            assertThat(o.sent()).isEqualTo(sends.size()).isEqualTo(new Shard(i, 3).ownedAmong(ramp.dueBy(S - 1)));
            unsent += o.unsent();
        }
        assertThat(unsent).isZero();
        assertThat(all).hasSize((int) ramp.dueBy(S - 1));
        assertThat(all.first()).isZero();
        assertThat(all.last()).isEqualTo(ramp.dueBy(S - 1) - 1);
    }

    @Test
    void sendLoop_shardIntendedTimes_areTheGlobalDueTimes() {
        Pacer constant = new Pacer.Constant(100);
        FakeClock clock = new FakeClock();
        long start = clock.now;
        List<long[]> sends = new ArrayList<>();
        new SendLoop(constant, S, MS, clock, clock, () -> false, new Shard(1, 4)).run(start, (k, intended, sent) -> sends.add(new long[]{k, intended}));
        assertThat(sends).hasSize(25);
        for (long[] s : sends) assertThat(s[1] - start).isEqualTo(constant.dueNanos(s[0]));
        assertThat(sends.getFirst()[0]).isEqualTo(1);
        assertThat(sends.get(1)[0]).isEqualTo(5);
    }

    @Test
    void sendLoop_slowShard_countsOnlyItsOwnUnsent() {
        FakeClock clock = new FakeClock();
        // every send costs 40 ms: a shard of 100/s in 4 (25/s, one each 40 ms) just keeps up, so at 200/s (50/s) it falls behind
        SendLoop.Outcome o = new SendLoop(new Pacer.Constant(200), S, MS, clock, clock, () -> false, new Shard(0, 4))
                .run(clock.now, (k, a, b) -> clock.now += 40 * MS);
        assertThat(o.sent() + o.unsent()).isEqualTo(50);
        assertThat(o.unsent()).isPositive();
    }
}
