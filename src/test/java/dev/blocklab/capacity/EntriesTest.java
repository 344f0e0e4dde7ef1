package dev.blocklab.capacity;

import dev.blocklab.model.ModelEntry;
import dev.blocklab.registry.Registry;
import dev.blocklab.server.ServerProfile;
import dev.blocklab.workload.BuiltInWorkloads;
import dev.blocklab.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EntriesTest {
    private static final Workload MIXED = BuiltInWorkloads.mixed();
    private static final Workload FRAMEWORKS = Registry.workload(Registry.FRAMEWORKS_WORKLOAD);

    private static ModelEntry.Kind kind(Entry e) { return ((Entry.InProcess) e).spec().entry().kind(); }

    @Test
    void resolve_registryEntriesAndHttpProfiles() {
        assertThat(kind(Entries.resolve("fixed:8", MIXED))).isEqualTo(ModelEntry.Kind.MODEL);
        assertThat(kind(Entries.resolve("reactor", FRAMEWORKS))).isEqualTo(ModelEntry.Kind.VARIANT);
        assertThat(Entries.resolve("invokeall:8", FRAMEWORKS)).isInstanceOfSatisfying(Entry.InProcess.class, e -> {
            assertThat(e.name()).isEqualTo("invokeall:8");
            assertThat(e.spec().size()).isEqualTo(8);
        });
        assertThat(Entries.resolve("http:play-2.5/sync-blocking", BuiltInWorkloads.profilePage())).isInstanceOfSatisfying(Entry.Http.class, e -> {
            assertThat(e.profile()).isInstanceOf(ServerProfile.Play25.class);
            assertThat(e.endpoint()).isEqualTo("/sync-blocking");
        });
    }

    @Test
    void resolve_aNameThatIsBothIsTheVariantOnSeed002_keepingTheNameAsWritten() {
        assertThat(kind(Entries.resolve(List.of("virtual"), MIXED).getFirst())).isEqualTo(ModelEntry.Kind.MODEL);
        Entry.InProcess variant = (Entry.InProcess) Entries.resolve(List.of("virtual"), FRAMEWORKS).getFirst();
        assertThat(variant.spec().text()).isEqualTo("frameworks-virtual");
        assertThat(variant.name()).isEqualTo("virtual");
        assertThat(kind(Entries.resolve("fixed:4", FRAMEWORKS))).as("a model runs seed 002's use case too").isEqualTo(ModelEntry.Kind.MODEL);
    }

    @Test
    void resolve_badNames_oneLineNamingIt() {
        assertThatThrownBy(() -> Entries.resolve("fixd:8", MIXED)).hasMessageStartingWith("unknown entry 'fixd:8'")
                .hasMessageContaining("reactor").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> Entries.resolve("fixed", MIXED)).hasMessageStartingWith("model 'fixed' needs a thread count");
        assertThatThrownBy(() -> Entries.resolve("reactor", MIXED)).hasMessageContaining("use --workload frameworks");
        assertThatThrownBy(() -> Entries.resolve("http:virtual/nowhere", BuiltInWorkloads.profilePage())).hasMessageContaining("unknown endpoint /nowhere");
        assertThatThrownBy(() -> Entries.resolve("http:virtual", BuiltInWorkloads.profilePage())).hasMessageContaining("write http:PROFILE/ENDPOINT");
        assertThatThrownBy(() -> Entries.resolve("http:bogus/sync-blocking", BuiltInWorkloads.profilePage()))
                .hasMessage("entry 'http:bogus/sync-blocking': unknown profile 'bogus' (known: play-2.5, threads:N, virtual, event-loop)");
        assertThatThrownBy(() -> Entries.resolve("http:threads:0/sync-blocking", BuiltInWorkloads.profilePage()))
                .hasMessage("entry 'http:threads:0/sync-blocking': threads:N needs N in 1..100000, got 0");
    }

    @Test
    void httpPrediction_poolsAndTheBlockedEventLoop() {
        Capacity.Predicted play = Capacity.http((Entry.Http) Entries.resolve("http:threads:20/sync-blocking", BuiltInWorkloads.profilePage()));
        assertThat(play.ceilingPerSecond()).isEqualTo(20.0); // 20 threads holding 1 s (200 + 500 + 300 ms)
        assertThat(play.basis()).contains("a pool of 20", "holding each request 1 s = 20/s");
        Capacity.Predicted loop = Capacity.http((Entry.Http) Entries.resolve("http:event-loop/sync-blocking", BuiltInWorkloads.profilePage()));
        assertThat(loop.basis()).startsWith("the event loop is blocked");
        assertThat(Capacity.http((Entry.Http) Entries.resolve("http:event-loop/async-non-blocking", BuiltInWorkloads.profilePage())).ceilingPerSecond()).isInfinite();
    }

    @Test
    void resolve_anHttpEntryWithAnotherWorkload_isRefusedInOneLine() {
        // smoke test #32: the http: entry served the profile page while the report was titled 'capacity of mixed'
        assertThatThrownBy(() -> Entries.resolve("http:virtual/async-non-blocking", MIXED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("entry 'http:virtual/async-non-blocking' serves the talk's profile page over HTTP, not the workload mixed: "
                        + "use --workload profile-page with http: entries, or a model (e.g. --entry virtual) for mixed");
        // a file that reuses the name profile-page is another workload
        Workload renamed = new Workload("profile-page", "a file", MIXED.graph(), MIXED.arrival());
        assertThatThrownBy(() -> Entries.resolve("http:virtual/sync-blocking", renamed)).hasMessageContaining("--workload profile-page");
    }
}
