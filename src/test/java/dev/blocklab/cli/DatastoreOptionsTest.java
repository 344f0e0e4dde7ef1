package dev.blocklab.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the reproduce line of a search over real servers repeats of their URLs. */
class DatastoreOptionsTest {
    @Test void masked_hidesEveryFormOfPassword_andKeepsTheRest() {
        assertThat(DatastoreOptions.masked("postgresql://lab:s3cret@db.example:5432/app")).isEqualTo("postgresql://lab:***@db.example:5432/app");
        assertThat(DatastoreOptions.masked("redis://:s3cret@cache:6379")).isEqualTo("redis://:***@cache:6379");
        assertThat(DatastoreOptions.masked("postgresql://db:5432/app?user=lab&password=s3cret&ssl=true"))
                .isEqualTo("postgresql://db:5432/app?user=lab&password=***&ssl=true");
        assertThat(DatastoreOptions.masked("redis://cache:6379")).isEqualTo("redis://cache:6379");
    }
}
