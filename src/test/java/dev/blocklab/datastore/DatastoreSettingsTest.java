package dev.blocklab.datastore;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatastoreSettingsTest {

    @Test void postgresUrl_defaultsAndItsParts() {
        assertThat(DatastoreSettings.postgres("postgresql://u:p@127.0.0.1:5433/db"))
                .isEqualTo(new DatastoreSettings.PostgresAddress("127.0.0.1", 5433, "db", "u", "p"));
        // no user, port or database: postgres, 5432 and the user's name, as the usage line says
        assertThat(DatastoreSettings.postgres("postgresql://127.0.0.1"))
                .isEqualTo(new DatastoreSettings.PostgresAddress("127.0.0.1", 5432, "postgres", "postgres", ""));
    }

    @Test void aPortOutOfRange_isOneLineNamingTheFlag() {
        assertThatThrownBy(() -> DatastoreSettings.postgres("postgresql://u:p@127.0.0.1:99999/db"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--postgres-url 'postgresql://u:p@127.0.0.1:99999/db': port 99999 is not in 1..65535");
        assertThatThrownBy(() -> DatastoreSettings.redis("redis://127.0.0.1:0"))
                .hasMessage("--redis-url 'redis://127.0.0.1:0': port 0 is not in 1..65535");
        assertThatThrownBy(() -> DatastoreSettings.postgres("mysql://h/db"))
                .hasMessageContaining("expected postgresql://[USER[:PASSWORD]@]HOST[:PORT][/DATABASE] (USER defaults to postgres");
    }
}
