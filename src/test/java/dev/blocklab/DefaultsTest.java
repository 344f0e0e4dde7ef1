package dev.blocklab;

import dev.blocklab.attack.AttackSettings;
import dev.blocklab.audit.AuditSettings;
import dev.blocklab.datastore.DatastoreSettings;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.experiment.ExperimentSettings;
import dev.blocklab.server.ServerSettings;
import dev.blocklab.workload.Durations;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine's defaults are {@link Defaults}' values: the records read them, and the nanosecond constants are the same durations. */
class DefaultsTest {
    @Test void settingsRecords_readTheDefaults() {
        assertThat(RunSettings.DEFAULTS).isEqualTo(new RunSettings(Defaults.TIME_SCALE, Defaults.WARMUPS, Defaults.REPEATS, 0,
                Defaults.SEED, Defaults.SPARE_THREADS));
        assertThat(ServerSettings.of(0, dev.blocklab.server.ServerProfile.parse("virtual")).seed()).isEqualTo(Defaults.SEED);
        assertThat(ServerSettings.DEFAULT_PORT).isEqualTo(Defaults.SERVE_PORT);
        assertThat(ExperimentSettings.QUICK_TIME_SCALE).isEqualTo(Defaults.QUICK_TIME_SCALE);
        assertThat(DatastoreSettings.DEFAULT_DB_POOL).isEqualTo(Defaults.DB_POOL);
        assertThat(AttackSettings.DEFAULT_MAX_CONNECTIONS).isEqualTo(Defaults.ATTACK_MAX_CONNECTIONS);
    }

    @Test void durationTexts_areTheEnginesNanos() {
        assertThat(Durations.parseNanos(Defaults.POOL_TIMEOUT)).isEqualTo(DatastoreSettings.DEFAULT_POOL_TIMEOUT_NANOS);
        assertThat(Durations.parseNanos(Defaults.AUDIT_THRESHOLD)).isEqualTo(AuditSettings.DEFAULT_THRESHOLD_NANOS);
        assertThat(Durations.parseNanos(Defaults.AUDIT_STALL)).isEqualTo(AuditSettings.DEFAULT_STALL_NANOS);
        assertThat(Durations.parseNanos(Defaults.ATTACK_TIMEOUT)).isEqualTo(AttackSettings.DEFAULT_TIMEOUT_NANOS);
        assertThat(Durations.parseNanos(Defaults.ATTACK_LATE_THRESHOLD)).isEqualTo(AttackSettings.DEFAULT_LATE_THRESHOLD_NANOS);
    }
}
