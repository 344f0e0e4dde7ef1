package dev.blocklab.registry;

import dev.blocklab.model.ModelEntry;
import dev.blocklab.model.ModelSpec;
import dev.blocklab.workload.BuiltInWorkloads;
import org.junit.jupiter.api.Test;

import java.util.HashSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryTest {

    @Test
    void all_listsModelsThenVariants_withUniqueFamilies() {
        assertThat(Registry.all()).extracting(ModelEntry::family).doesNotHaveDuplicates()
                .startsWith("sequential", "fixed")
                .contains("reactor", "invokeall", "frameworks-sequential", "frameworks-virtual", "frameworks-structured", "jaxrs-cf-suspended");
        assertThat(Registry.all()).filteredOn(e -> e.kind() == ModelEntry.Kind.VARIANT).hasSize(19);
        assertThat(new HashSet<>(Registry.all().stream().map(ModelEntry::kind).toList()))
                .containsExactlyInAnyOrder(ModelEntry.Kind.MODEL, ModelEntry.Kind.VARIANT);
    }

    @Test
    void threadPerRequest_isTheModelsThatStartAThreadForEachRequest_notThePools() {
        // what run's batch check weighs at 1.1 KB a request; every other entry queues its requests on bounded pools or futures
        assertThat(Registry.all()).filteredOn(ModelEntry::threadPerRequest).extracting(ModelEntry::family)
                .containsExactlyInAnyOrder("cached", "virtual", "structured", "frameworks-virtual", "frameworks-structured");
        assertThat(Registry.parse("virtual").threadPerRequest()).isTrue();
        assertThat(Registry.parse("fixed:8").threadPerRequest()).isFalse();
    }

    @Test
    void failsFast_everyEngineModel_andEveryVariantButThoseThatWaitForEveryCall() {
        // the variants read from their code (invokeAll, allOf, thenCombine, allOf before the Disruptor's merge ring) and
        // seen in 'reproduce failures', whose verdict for them is 'waits'; every other entry ends a request at its first failure
        assertThat(Registry.all()).filteredOn(e -> !e.failsFast()).extracting(ModelEntry::family)
                .containsExactlyInAnyOrder("invokeall", "supplyasync", "cf-suspended", "disruptor-latch", "disruptor-async",
                        "frameworks-virtual", "jaxrs-invokeall", "jaxrs-supplyasync", "jaxrs-cf-suspended");
        assertThat(Registry.all()).filteredOn(e -> e.kind() == ModelEntry.Kind.MODEL).allMatch(ModelEntry::failsFast);
        assertThat(Registry.parse("frameworks-structured").failsFast()).isTrue();
        assertThat(Registry.parse("disruptor-stages").failsFast()).as("its later stages skip a failed request").isTrue();
    }

    @Test
    void parse_namesAVariantOrAModel_onceWithItsSize() {
        ModelSpec reactor = Registry.parse("reactor");
        assertThat(reactor.entry().kind()).isEqualTo(ModelEntry.Kind.VARIANT);
        assertThat(reactor.text()).isEqualTo("reactor");
        ModelSpec invokeAll = Registry.parse("invokeall:16");
        assertThat(invokeAll.size()).isEqualTo(16);
        assertThat(invokeAll.text()).isEqualTo("invokeall:16");
        assertThat(Registry.parse("virtual").entry().kind()).isEqualTo(ModelEntry.Kind.MODEL);
        assertThat(Registry.parse("frameworks-virtual").entry().kind()).isEqualTo(ModelEntry.Kind.VARIANT);
    }

    @Test
    void parse_forSeed002sUseCase_aSharedNameIsTheVariant_elsewhereTheModel() {
        assertThat(Registry.parse("virtual", Registry.workload("frameworks")).text()).isEqualTo("frameworks-virtual");
        assertThat(Registry.parse("structured", Registry.workload("frameworks")).text()).isEqualTo("frameworks-structured");
        assertThat(Registry.parse("virtual", BuiltInWorkloads.hundredCalls()).text()).isEqualTo("virtual");
        assertThat(Registry.parse("fixed:4", Registry.workload("frameworks")).text()).isEqualTo("fixed:4");
        assertThat(Registry.parse("reactor", BuiltInWorkloads.hundredCalls()).text()).as("parsed, not checked").isEqualTo("reactor");
    }

    @Test
    void parse_badNames_oneLineNamingTheProblem() {
        assertThatThrownBy(() -> Registry.parse("invokeall")).hasMessage("model 'invokeall' needs a thread count: write 'invokeall:N', e.g. invokeall:4");
        assertThatThrownBy(() -> Registry.parse("invokeall:2")).hasMessage("model 'invokeall:2': the pool needs at least 4 threads, got 2");
        assertThatThrownBy(() -> Registry.parse("reactor:4")).hasMessage("model 'reactor' takes no size: write 'reactor'");
        assertThatThrownBy(() -> Registry.parse("forkjoin:40000")).hasMessage("model 'forkjoin:40000': at most 32767 threads, got 40000");
        assertThatThrownBy(() -> Registry.workload("framework")).hasMessageStartingWith("unknown workload 'framework'; did you mean 'frameworks'?");
        assertThatThrownBy(() -> Registry.workload("hundred-cals")).hasMessageStartingWith("unknown workload 'hundred-cals'; did you mean 'hundred-calls'?");
        assertThatThrownBy(() -> Registry.parse("reactr")).hasMessageStartingWith("unknown model 'reactr'; did you mean 'reactor'? (known: sequential, fixed:N")
                .hasMessageContaining("reactor, vertx-event-loop");
    }

    @Test
    void check_aVariantOnAnotherWorkload_isRefusedInOneLine_aModelOnTheFrameworksWorkloadRuns() {
        assertThatThrownBy(() -> Registry.parse("reactor").check(BuiltInWorkloads.hundredCalls()))
                .hasMessageStartingWith("model 'reactor' cannot run workload 'hundred-calls': a seed 002 framework variant runs only the frameworks use case")
                .hasMessageNotContaining("\n");
        assertThat(Registry.parse("reactor").check(Registry.workload("frameworks")).text()).isEqualTo("reactor");
        assertThat(Registry.parse("fixed:4").check(Registry.workload("frameworks")).text()).isEqualTo("fixed:4");
        assertThat(Registry.workload("hundred-calls").name()).isEqualTo("hundred-calls");
    }
}
