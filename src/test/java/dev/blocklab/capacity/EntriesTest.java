package dev.blocklab.capacity;

import dev.blocklab.server.ServerProfile;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EntriesTest {
    @Test
    void resolve_modelsVariantsAndHttpProfiles() {
        assertThat(Entries.resolve("fixed:8")).isInstanceOfSatisfying(Entry.InProcess.class, e -> assertThat(e.kind()).isEqualTo("model"));
        assertThat(Entries.resolve("reactor")).isInstanceOfSatisfying(Entry.InProcess.class, e -> assertThat(e.kind()).isEqualTo("variant"));
        assertThat(Entries.resolve("http:play-2.5/sync-blocking")).isInstanceOfSatisfying(Entry.Http.class, e -> {
            assertThat(e.profile()).isInstanceOf(ServerProfile.Play25.class);
            assertThat(e.endpoint()).isEqualTo("/sync-blocking");
        });
    }

    @Test
    void resolve_aNameThatIsBothIsTheVariantForSeed002() {
        assertThat(Entries.resolve(List.of("virtual"), false).getFirst()).extracting(e -> ((Entry.InProcess) e).kind()).isEqualTo("model");
        assertThat(Entries.resolve(List.of("virtual"), true).getFirst()).extracting(e -> ((Entry.InProcess) e).kind()).isEqualTo("variant");
        assertThat(Entries.needsFrameworksUseCase(Entries.resolve("reactor"))).isTrue();
    }

    @Test
    void resolve_unknown_oneLineNamingIt() {
        assertThatThrownBy(() -> Entries.resolve("fixd:8")).hasMessageStartingWith("unknown entry 'fixd:8'");
        assertThatThrownBy(() -> Entries.resolve("http:virtual/nowhere")).hasMessageContaining("unknown endpoint /nowhere");
        assertThatThrownBy(() -> Entries.resolve("http:virtual")).hasMessageContaining("write http:PROFILE/ENDPOINT");
    }

    @Test
    void httpPrediction_poolsAndTheBlockedEventLoop() {
        Capacity.Predicted play = Capacity.http((Entry.Http) Entries.resolve("http:threads:20/sync-blocking"));
        assertThat(play.ceilingPerSecond()).isEqualTo(20.0); // 20 threads holding 1 s (200 + 500 + 300 ms)
        assertThat(play.basis()).contains("a pool of 20", "holding each request 1s = 20/s");
        Capacity.Predicted loop = Capacity.http((Entry.Http) Entries.resolve("http:event-loop/sync-blocking"));
        assertThat(loop.basis()).startsWith("the event loop is blocked");
        assertThat(Capacity.http((Entry.Http) Entries.resolve("http:event-loop/async-non-blocking")).ceilingPerSecond()).isInfinite();
    }
}
