package dev.blocklab.audit;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OsThreadStateTest {
    @Test
    void of_readsTheLetterAfterTheLastParenthesis() throws Exception {
        assertThat(OsThreadState.of("4242 (ForkJoinPool-1-) S 1 4200 4200 0 -1")).isEqualTo('S');
        assertThat(OsThreadState.of("4243 (a) b (c)) R 1 2 3")).isEqualTo('R');
        assertThatThrownBy(() -> OsThreadState.of("garbage")).isInstanceOf(IllegalArgumentException.class);
        Path self = Path.of("/proc/thread-self/stat");
        if (Files.isReadable(self)) assertThat(OsThreadState.of(Files.readString(self))).as("this thread runs").isEqualTo('R');
    }
}
