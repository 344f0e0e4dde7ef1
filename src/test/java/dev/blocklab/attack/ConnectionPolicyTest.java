package dev.blocklab.attack;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default connection policy on a fake clock (times are plain numbers handed in): a fast target is carried by
 * the connections it has, a slow one gets a connection per waiting request while nothing frees, and the waits in
 * between follow the measured service and connect times.
 */
class ConnectionPolicyTest {
    private static final long US = 1_000L, MS = 1_000_000L;

    /** A policy that has measured {@code service} per request and {@code connect} per connection, steadily. */
    private static ConnectionPolicy measured(long serviceNanos, long connectNanos) {
        ConnectionPolicy p = new ConnectionPolicy();
        for (int i = 0; i < 200; i++) {
            p.serviceTime(serviceNanos);
            p.connectTime(connectNanos);
        }
        return p;
    }

    @Test
    void toOpen_nothingWaiting_opensNothing() {
        assertThat(new ConnectionPolicy().toOpen(0, 0, 0, 0, 0, 0)).isZero();
        assertThat(measured(500 * MS, 200 * US).toOpen(10 * MS, 0, 0, 4000, 0, 0)).isZero();
    }

    @Test
    void toOpen_noBusyConnection_opensOnePerWaitingRequestNotYetCovered() {
        ConnectionPolicy p = measured(100 * US, 200 * US);
        assertThat(p.toOpen(0, 5, 0, 0, 0, 0)).isEqualTo(5);
        assertThat(p.toOpen(0, 5, 3, 0, 0, 0)).isEqualTo(2);
    }

    @Test
    void toOpen_fastTarget_aShortQueueWaitsForKeptAliveConnections() {
        // 0.1 ms service time, 0.2 ms to connect, 5 busy connections: one frees every 20 us, so 40 waiting
        // requests are served within the 1 ms they may wait; a burst of 200 is not, but each new connection
        // also serves the queue after it connects, so far fewer than 200 are opened.
        ConnectionPolicy p = measured(100 * US, 200 * US);
        long now = 1 * MS, oldest = now - 50 * US;
        assertThat(p.allowedWaitNanos()).isEqualTo(ConnectionPolicy.MIN_WAIT_NANOS);
        assertThat(p.toOpen(now, 40, 0, 5, oldest, 0)).isZero();
        int burst = p.toOpen(now, 200, 0, 5, oldest, 0);
        assertThat(burst).isPositive().isLessThan(200 / 5);
        assertThat(p.toOpen(now, 200, burst, 5, oldest, 0)).isZero(); // the connections being opened cover the rest
    }

    @Test
    void toOpen_slowTarget_atAStepNothingFreesSoEveryWaitingRequestGetsOne() {
        // 500 ms service time, 2,000 busy connections that all left 10 ms ago (the rate just stepped up): the
        // oldest frees in 490 ms, far beyond the 5 ms (1 % of the service time) a request may wait.
        ConnectionPolicy p = measured(500 * MS, 200 * US);
        long now = 10_000 * MS;
        assertThat(p.allowedWaitNanos()).isEqualTo(5 * MS);
        assertThat(p.toOpen(now, 40, 0, 2000, now - 10 * MS, 0)).isEqualTo(40);
    }

    @Test
    void toOpen_slowTargetInSteadyState_waitsForTheNextResponse() {
        // The same target in its steady state: the oldest request is due, and with 2,000 busy connections one
        // frees every 0.25 ms, so the few requests that queue between two responses wait (well within 5 ms).
        ConnectionPolicy p = measured(500 * MS, 200 * US);
        long now = 10_000 * MS;
        assertThat(p.toOpen(now, 3, 0, 2000, now - 500 * MS, 0)).isZero();
        // a queue of 100 is more than 5 ms of responses (about 20): connections are opened for the rest
        assertThat(p.toOpen(now, 100, 0, 2000, now - 500 * MS, 0)).isBetween(60, 80);
    }

    @Test
    void toOpen_beforeAnyServiceTime_theOldestRequestsAgeStandsForIt() {
        // Nothing measured yet (assumed 1 ms to connect): a request in flight for 0.1 ms is expected to take
        // about 0.1 ms more, so one waiting request waits; one in flight for 5 ms is expected to take 5 ms more.
        ConnectionPolicy p = new ConnectionPolicy();
        long now = 100 * MS;
        assertThat(p.toOpen(now, 1, 0, 1, now - 100 * US, 0)).isZero();
        assertThat(p.toOpen(now, 1, 0, 1, now - 5 * MS, 0)).isEqualTo(1);
    }

    @Test
    void toOpen_timePassingWithoutResponses_opensWhatWaitingNoLongerJustifies() {
        // The first decision waits; the same queue asked again later, still without a response, gets connections.
        ConnectionPolicy p = new ConnectionPolicy();
        long sent = 100 * MS;
        assertThat(p.toOpen(sent + 200 * US, 2, 0, 1, sent, 0)).isZero();
        assertThat(p.toOpen(sent + 20 * MS, 2, 0, 1, sent, 0)).isEqualTo(2);
    }

    @Test
    void toOpen_serviceTimeInflatedByTheLoopsOwnLag_waitsForTheResponsesItIsAboutToRead() {
        // A 0.1 ms target, but the event loop was descheduled for a second: every response of that second was read
        // a second late, so the measured service time is about a second, and 300 sends queued behind the stall.
        ConnectionPolicy p = measured(1_000 * MS, 200 * US);
        long now = 10_000 * MS, oldest = now - 100 * US;
        assertThat(p.toOpen(now, 300, 0, 5, oldest, 0)).isGreaterThan(290); // taken at its word: nothing frees for a second
        assertThat(p.toOpen(now, 300, 0, 5, oldest, 999_900 * US)).isLessThan(300 / 5); // the lag is the loop's
        // a slow target stays slow whatever the lag: 500 ms measured with 6 ms of lag still needs a connection each
        ConnectionPolicy slow = measured(500 * MS, 200 * US);
        assertThat(slow.toOpen(now, 40, 0, 2000, now - 10 * MS, 6 * MS)).isEqualTo(40);
    }

    @Test
    void serviceTime_followsTheLowerEnvelope_aSlowTargetStaysSlow() {
        // A 0.1 ms target whose every tenth response was read 50 ms late: the estimate stays near 0.1 ms.
        ConnectionPolicy fast = new ConnectionPolicy();
        for (int i = 0; i < 1000; i++) fast.serviceTime(i % 10 == 9 ? 50 * MS : 100 * US);
        assertThat(fast.serviceNanos()).isLessThan(2.0 * MS);
        // A 500 ms target stays at 500 ms, and one that slows down for good is followed, slowly.
        ConnectionPolicy slow = measured(500 * MS, 200 * US);
        assertThat(slow.serviceNanos()).isCloseTo(500.0 * MS, org.assertj.core.data.Offset.offset(1.0 * MS));
        for (int i = 0; i < 2000; i++) slow.serviceTime(1_000 * MS);
        assertThat(slow.serviceNanos()).isGreaterThan(990.0 * MS);
    }

    @Test
    void toOpen_requestsThatAlreadyWaitedTooLong_getAConnectionWhateverTheEstimate() {
        // The estimate says five busy connections of a 0.1 ms target serve 40 waiting requests within 1 ms, but
        // 12 of them have already waited more than twice that: they get one each (less those being opened).
        ConnectionPolicy p = measured(100 * US, 200 * US);
        long now = 1 * MS, oldest = now - 50 * US;
        assertThat(p.overdueNanos()).isEqualTo(2 * ConnectionPolicy.MIN_WAIT_NANOS);
        assertThat(p.toOpen(now, 40, 0, 5, oldest, 0, 0)).isZero();
        assertThat(p.toOpen(now, 40, 0, 5, oldest, 0, 12)).isEqualTo(12);
        assertThat(p.toOpen(now, 40, 5, 5, oldest, 0, 12)).isEqualTo(7);
    }

    @Test
    void allowedWait_followsTheMeasuredTimes() {
        ConnectionPolicy p = new ConnectionPolicy();
        assertThat(p.allowedWaitNanos()).isEqualTo(ConnectionPolicy.INITIAL_CONNECT_NANOS);
        p = measured(10 * MS, 300 * US);
        assertThat(p.serviceNanos()).isCloseTo(10 * MS, org.assertj.core.data.Offset.offset(1.0 * US));
        assertThat(p.allowedWaitNanos()).isEqualTo(ConnectionPolicy.MIN_WAIT_NANOS); // 1 % of 10 ms and a connect are less
        p = measured(10 * MS, 3 * MS);
        assertThat(p.allowedWaitNanos()).isBetween(2_990 * US, 3_010 * US); // a slow connect: waiting is no worse
        p = measured(1_000 * MS, 300 * US);
        assertThat(p.allowedWaitNanos()).isBetween(9_990 * US, 10_010 * US);
    }
}
