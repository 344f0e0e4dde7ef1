package dev.blocklab.load;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The send loop against a fake clock: every scheduling decision, no sleeping. */
class SendLoopTest {
    private static final long MS = 1_000_000L, S = 1_000_000_000L;
    private static final long START = FakeClock.START;

    record Send(long index, long intended, long sent) {}

    private static SendLoop loop(Pacer pacer, long durationNanos, FakeClock clock) {
        return new SendLoop(pacer, durationNanos, MS, clock, clock, () -> false);
    }

    @Test
    void run_constantRate_sendsEachRequestOnTimeAndStopsAtDuration() {
        FakeClock clock = new FakeClock();
        List<Send> sends = new ArrayList<>();
        SendLoop.Outcome o = loop(new Pacer.Constant(100), S, clock).run(START, (i, intended, sent) -> sends.add(new Send(i, intended, sent)));

        assertThat(o.sent()).isEqualTo(100);
        assertThat(o.unsent()).isZero();
        assertThat(o.lateSends()).isZero();
        assertThat(o.stopped()).isFalse();
        assertThat(sends).hasSize(100);
        for (int i = 0; i < sends.size(); i++) {
            assertThat(sends.get(i).index()).isEqualTo(i);
            assertThat(sends.get(i).intended()).isEqualTo(START + i * 10 * MS);
            assertThat(sends.get(i).sent()).isEqualTo(sends.get(i).intended());
        }
        assertThat(clock.now - START).as("no sleeping past the last due time").isLessThanOrEqualTo(990 * MS);
        assertThat(clock.sleeps).allMatch(n -> n > 0 && n <= SendLoop.MAX_SLEEP_NANOS);
    }

    @Test
    void steps_calledWhenTheyAsk_sendWhatRunSendsAndEndWithMinusOne() {
        FakeClock clock = new FakeClock();
        List<Send> sends = new ArrayList<>();
        SendLoop.Steps steps = loop(new Pacer.Constant(100), S, clock).start(START, (i, intended, sent) -> sends.add(new Send(i, intended, sent)));
        assertThat(steps.step()).as("request 0 is due at the start: sent, then 10 ms to the next").isEqualTo(10 * MS);
        assertThat(sends).containsExactly(new Send(0, START, START));
        assertThat(steps.outcome()).isNull();
        clock.now += 25 * MS; // a timer that fires late: what is due goes at once, counted from its own due time
        assertThat(steps.step()).isEqualTo(5 * MS);
        assertThat(sends).extracting(Send::index).containsExactly(0L, 1L, 2L);
        assertThat(sends.get(1).sent() - sends.get(1).intended()).isEqualTo(15 * MS);
        long wait;
        while ((wait = steps.step()) >= 0) {
            assertThat(wait).isPositive().isLessThanOrEqualTo(SendLoop.MAX_SLEEP_NANOS);
            clock.now += wait;
        }
        SendLoop.Outcome o = steps.outcome();
        assertThat(o.sent()).isEqualTo(100);
        assertThat(o.lateSends()).as("requests 1 and 2, 15 and 5 ms behind").isEqualTo(2);
        assertThat(o.maxLateNanos()).isEqualTo(15 * MS);
        assertThat(o.unsent()).isZero();
        assertThat(steps.step()).as("ended stays ended").isEqualTo(-1);
        assertThat(sends).hasSize(100);
    }

    @Test
    void steps_stop_endsSendingAndCountsOnlyWhatWasDueAsUnsent() {
        FakeClock clock = new FakeClock();
        SendLoop.Steps steps = loop(new Pacer.Constant(100), S, clock).start(START, (i, a, b) -> {});
        steps.step();
        clock.now += 95 * MS; // requests 1..9 are due, none sent
        steps.stop();
        assertThat(steps.step()).isEqualTo(-1);
        assertThat(steps.outcome().stopped()).isTrue();
        assertThat(steps.outcome().sent()).isEqualTo(1);
        assertThat(steps.outcome().unsent()).isEqualTo(9);
    }

    @Test
    void combine_addsCountsAndKeepsTheWorstLatenessAndTheLastSend() {
        SendLoop.Outcome a = new SendLoop.Outcome(10, 1, 2, 5 * MS, START + 900 * MS, false);
        SendLoop.Outcome b = new SendLoop.Outcome(11, 0, 3, 7 * MS, START + 950 * MS, true);
        assertThat(SendLoop.combine(List.of(a, b))).isEqualTo(new SendLoop.Outcome(21, 1, 5, 7 * MS, START + 950 * MS, true));
        assertThat(SendLoop.combine(List.of(b, a))).isEqualTo(new SendLoop.Outcome(21, 1, 5, 7 * MS, START + 950 * MS, true));
    }

    @Test
    void run_oversleepBelowThreshold_isNotLate() {
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = MS / 2;
        SendLoop.Outcome o = loop(new Pacer.Constant(100), S, clock).run(START, (i, a, b) -> {});
        assertThat(o.sent()).isEqualTo(100);
        assertThat(o.lateSends()).isZero();
        assertThat(o.maxLateNanos()).isEqualTo(MS / 2);
    }

    @Test
    void run_oversleepAboveThreshold_countsEveryWokenSendLate() {
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = 3 * MS / 2;
        List<Send> sends = new ArrayList<>();
        SendLoop.Outcome o = loop(new Pacer.Constant(100), S, clock).run(START, (i, a, b) -> sends.add(new Send(i, a, b)));
        assertThat(o.sent()).isEqualTo(100);
        assertThat(o.lateSends()).as("request 0 is due at the start; every later one wakes 1.5ms late").isEqualTo(99);
        assertThat(sends.get(5).sent() - sends.get(5).intended()).isEqualTo(3 * MS / 2);
        assertThat(sends.get(5).intended()).as("the intended time stays on schedule").isEqualTo(START + 50 * MS);
    }

    @Test
    void run_sendsSlowerThanSchedule_fallsBehindSendsOverdueAtOnceAndCountsUnsent() {
        FakeClock clock = new FakeClock();
        // 1000/s asked for 1s, but each send costs 2ms of the loop's time; late sends may go on until 1.1s.
        SendLoop.Outcome o = loop(new Pacer.Constant(1000), S, clock).run(START, (i, a, b) -> clock.now += 2 * MS);
        assertThat(SendLoop.overrunNanos(S)).isEqualTo(100 * MS);
        assertThat(o.sent()).as("sends at 0, 2, ..., 1098 ms").isEqualTo(550);
        assertThat(o.unsent()).isEqualTo(450);
        assertThat(o.lateSends()).as("all but the first two (due at 0 and 1ms, sent at 0 and 2ms)").isEqualTo(548);
        assertThat(o.maxLateNanos()).isEqualTo(549 * MS);
        assertThat(clock.sleeps).as("an overdue request is sent without sleeping").isEmpty();
    }

    @Test
    void run_slightlyBehindAtTheEnd_stillSendsEveryScheduledRequest() {
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = 33 * MS; // each wake-up 33ms late: the loop ends well behind
        SendLoop.Outcome o = loop(new Pacer.Constant(100), S, clock).run(START, (i, a, b) -> {});
        assertThat(o.sent()).isEqualTo(100);
        assertThat(o.unsent()).isZero();
        assertThat(o.lastSendNanos() - START).isGreaterThan(S).isLessThan(S + SendLoop.overrunNanos(S));
    }

    @Test
    void run_stopRequested_stopsBeforeTheNextSend() {
        FakeClock clock = new FakeClock();
        List<Send> sends = new ArrayList<>();
        SendLoop loop = new SendLoop(new Pacer.Constant(100), 10 * S, MS, clock, clock, () -> sends.size() >= 7);
        SendLoop.Outcome o = loop.run(START, (i, a, b) -> sends.add(new Send(i, a, b)));
        assertThat(o.sent()).isEqualTo(7);
        assertThat(o.stopped()).isTrue();
        assertThat(o.unsent()).as("the rest of the schedule was cancelled, not missed").isZero();
        assertThat(o.lastSendNanos()).isEqualTo(START + 60 * MS);
    }

    @Test
    void run_stopAskedWhileWaiting_countsNothingUnsent() {
        // a stop asked 5 ms after the send due at 70 ms is seen when the loop wakes for the one due at 80 ms: that
        // one was cancelled, not missed (every Ctrl-C'd attack once read "1 of N scheduled requests never sent")
        FakeClock clock = new FakeClock();
        SendLoop loop = new SendLoop(new Pacer.Constant(100), 10 * S, MS, clock, clock, () -> clock.now - START >= 75 * MS);
        SendLoop.Outcome o = loop.run(START, (i, a, b) -> {});
        assertThat(o.stopped()).isTrue();
        assertThat(o.sent()).isEqualTo(8);
        assertThat(o.unsent()).isZero();
    }

    @Test
    void run_stopAskedWhileTheLoopStalled_countsWhatFellDueBeforeTheStopAsUnsent() {
        // the loop oversleeps 500 ms after its first send; the stop is asked at 300 ms: the 30 requests due at
        // 10..300 ms were missed, not cancelled
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = 500 * MS;
        SendLoop.Stop stop = new SendLoop.Stop() {
            @Override public boolean requested() { return clock.now - START >= 300 * MS; }
            @Override public long askedAtNanos() { return START + 300 * MS; }
        };
        SendLoop.Outcome o = new SendLoop(new Pacer.Constant(100), 10 * S, MS, clock, clock, stop).run(START, (i, a, b) -> {});
        assertThat(o.stopped()).isTrue();
        assertThat(o.sent()).isEqualTo(1);
        assertThat(o.unsent()).isEqualTo(30);
    }

    @Test
    void run_stopSeenInTheMiddleOfABacklog_countsTheRestOfTheBacklogUnsent() {
        // the loop wakes 50 ms late (at 60 ms), owes requests 1 to 6, sends two and then sees the stop: 4 were missed
        FakeClock clock = new FakeClock();
        clock.oversleepNanos = 50 * MS;
        List<Send> sends = new ArrayList<>();
        SendLoop loop = new SendLoop(new Pacer.Constant(100), 10 * S, MS, clock, clock, () -> sends.size() >= 3);
        SendLoop.Outcome o = loop.run(START, (i, a, b) -> sends.add(new Send(i, a, b)));
        assertThat(o.stopped()).isTrue();
        assertThat(o.sent()).isEqualTo(3);
        assertThat(o.unsent()).isEqualTo(4);
    }

    @Test
    void run_longGap_sleepsInSlicesSoAStopIsSeen() {
        FakeClock clock = new FakeClock();
        SendLoop.Outcome o = loop(new Pacer.Constant(1), 2 * S, clock).run(START, (i, a, b) -> {});
        assertThat(o.sent()).isEqualTo(2);
        assertThat(clock.sleeps).hasSize((int) (S / SendLoop.MAX_SLEEP_NANOS));
    }

    @Test
    void run_steps_sendsTheAreaUnderTheCurve() {
        FakeClock clock = new FakeClock();
        List<Send> sends = new ArrayList<>();
        Pacer steps = new Pacer.Steps(List.of(10.0, 100.0, 20.0), 500 * MS);
        SendLoop.Outcome o = loop(steps, 1500 * MS, clock).run(START, (i, a, b) -> sends.add(new Send(i, a, b)));
        assertThat(o.sent()).isEqualTo(5 + 50 + 10);
        assertThat(sends.get(5).intended()).isEqualTo(START + 500 * MS);
        assertThat(sends.get(55).intended()).isEqualTo(START + 1000 * MS);
        assertThat(o.lateSends()).isZero();
    }

    @Test
    void run_ramp_sendsFasterOverTime() {
        FakeClock clock = new FakeClock();
        List<Send> sends = new ArrayList<>();
        SendLoop.Outcome o = loop(new Pacer.LinearRamp(100, 300, S), S, clock).run(START, (i, a, b) -> sends.add(new Send(i, a, b)));
        assertThat(o.sent()).isEqualTo(200); // area = 100 + 200/2
        long firstGap = sends.get(1).intended() - sends.get(0).intended();
        long lastGap = sends.get(199).intended() - sends.get(198).intended();
        assertThat(firstGap).isGreaterThan(2 * lastGap);
    }
}
