package dev.blocklab.audit;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an audit says of the JFR stream it read. On Ctrl-C or SIGTERM JFR's own shutdown hook stops every recording
 * beside the command's hook; the tests stop them so, as that hook does.
 */
class AuditDeliveryTest {
    private static final AuditSettings SETTINGS = new AuditSettings(5_000_000, 200_000_000, 20_000_000);

    @Test
    void finish_withJfrRunning_sawEveryEvent() {
        try (Auditor auditor = Auditor.start(SETTINGS)) {
            AuditResult audited = auditor.finish();
            assertThat(audited.delivery()).isEqualTo(AuditResult.Delivery.COMPLETE);
            assertThat(audited.notes()).noneMatch(n -> n.contains("JFR shut down") || n.contains("did not deliver"));
        }
    }

    @Test
    void finish_afterJfrStoppedAsAtShutdown_saysTheStreamEndedWithJfr_notThatEventsWereMissed() {
        try (Auditor auditor = Auditor.start(SETTINGS)) {
            for (Recording r : FlightRecorder.getFlightRecorder().getRecordings())
                if (r.getState() == RecordingState.RUNNING) r.stop();
            AuditResult audited = auditor.finish(Duration.ofSeconds(30));
            assertThat(audited.delivery()).isEqualTo(AuditResult.Delivery.UNTIL_JFR_SHUTDOWN);
            assertThat(audited.notes()).noneMatch(n -> n.contains("may be missing"))
                    .anyMatch(n -> n.startsWith("audit: JFR shut down with the JVM at the signal"));
        }
    }
}
