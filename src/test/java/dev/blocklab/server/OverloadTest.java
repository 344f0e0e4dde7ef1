package dev.blocklab.server;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Open-loop load beyond a profile's capacity, at time scale 1/100 or 1/10. */
class OverloadTest {

    @Test void threeTimesCapacity_shedsWith503_staysUp_andRecovers() throws Exception {
        // threads:2 holding /sync-blocking for 1 s / 100 = 10 ms: capacity 200 requests a second
        ServerSettings settings = BlocklabServerTest.settings("threads:2").withQueue(4);
        try (BlocklabServer server = BlocklabServer.start(settings)) {
            var uri = server.uri().resolve("/sync-blocking");
            OpenLoopSender.warmUp(server.uri().resolve("/health"));
            OpenLoopSender.Result overload = OpenLoopSender.send(uri, 600, 300, Duration.ofSeconds(2));
            assertThat(overload.count(503)).as("shed %s", overload.statuses()).isGreaterThan(30);
            assertThat(overload.count(200)).as("served %s", overload.statuses()).isGreaterThan(10);
            assertThat(overload.count(200) + overload.count(503)).as("every request answered %s", overload.statuses())
                    .isEqualTo(300);
            assertThat(server.shedCount()).isEqualTo(overload.count(503));

            OpenLoopSender.Result calm = OpenLoopSender.send(uri, 50, 20, Duration.ofSeconds(2));
            assertThat(calm.statuses()).as("recovered").containsOnlyKeys(200);
            assertThat(server.metricsText()).contains("blocklab_requests_waiting 0", "blocklab_requests_in_flight 0");
        }
    }

    @Test void play25_syncBlockingAtTwiceCapacity_succeedsFarLessThanAsyncNonBlocking() {
        // time scale 1/10: /sync-blocking holds one of 8 threads for 100 ms, so capacity is 80 a second; at
        // 160 a second with the talk's 3 s timeout (300 ms scaled) the queue grows until requests time out.
        // /async-non-blocking holds no thread while it waits (50 ms scaled) and keeps up.
        long scale = 10;
        ServerSettings settings = ServerSettings.of(0, new ServerProfile.Play25(8)).withTimeScale(scale).withLog(l -> {})
                .withAdmission(Admission.FIXED);   // the talk's failure: a queue that never sheds
        Duration timeout = Duration.ofMillis(3_000 / scale);
        OpenLoopSender.Result sync, nonBlocking;
        try (BlocklabServer server = BlocklabServer.start(settings)) {
            OpenLoopSender.warmUp(server.uri().resolve("/async-non-blocking"));
            nonBlocking = OpenLoopSender.send(server.uri().resolve("/async-non-blocking"), 160, 320, timeout);
        }
        try (BlocklabServer server = BlocklabServer.start(settings)) {
            sync = OpenLoopSender.send(server.uri().resolve("/sync-blocking"), 160, 320, timeout);
        }
        // expected about 0.1 against 1.0; the bounds leave room for a busy shared machine stalling the JVM
        assertThat(sync.successRatio()).as("sync-blocking %s", sync.statuses()).isLessThan(0.5);
        assertThat(nonBlocking.successRatio() - sync.successRatio())
                .as("async-non-blocking %s vs sync-blocking %s", nonBlocking.statuses(), sync.statuses()).isGreaterThan(0.4);
    }
}
