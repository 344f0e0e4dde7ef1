package dev.blocklab.shard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartAtTest {
    @Test void parse_isoAndEpochMillis() {
        assertThat(StartAt.parse("2026-11-23T17:30:00Z", Clock.systemUTC(), 0)).isEqualTo(Instant.parse("2026-11-23T17:30:00Z"));
        assertThat(StartAt.parse("1795455000000", Clock.systemUTC(), 0)).isEqualTo(Instant.ofEpochMilli(1795455000000L));
        assertThatThrownBy(() -> StartAt.parse("soon", Clock.systemUTC(), 0)).hasMessageContaining("--start-at: 'soon'");
    }

    /** A waiting worker is counted ready; once the barrier holds an instant it is released and leaves no mark behind. */
    @Test void barrier_marksReadyWhileWaiting_andRemovesTheMarkOnRelease(@TempDir Path dir) throws Exception {
        Path barrier = dir.resolve("start-at");
        CompletableFuture<Instant> waiting = CompletableFuture.supplyAsync(() -> StartAt.parse("@" + barrier, Clock.systemUTC(), 30_000));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (StartAt.readyCount(barrier) == 0 && System.nanoTime() < deadline) Thread.sleep(20);
        assertThat(StartAt.readyCount(barrier)).isEqualTo(1);
        assertThat(waiting).isNotDone();
        Files.writeString(barrier, "2026-11-23T17:30:00Z");
        assertThat(waiting.get(20, TimeUnit.SECONDS)).isEqualTo(Instant.parse("2026-11-23T17:30:00Z"));
        assertThat(StartAt.readyCount(barrier)).isZero();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("start-at");
        }
    }

    @Test void barrier_timesOut_andRemovesTheMark(@TempDir Path dir) {
        Path barrier = dir.resolve("start-at");
        assertThatThrownBy(() -> StartAt.parse("@" + barrier, Clock.systemUTC(), 150)).hasMessageContaining("did not appear within");
        assertThat(StartAt.readyCount(barrier)).isZero();
    }
}
