package dev.blocklab.audit;

import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.misuse.MisuseCase;
import dev.blocklab.misuse.MisuseCases;
import dev.blocklab.model.Models;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;
import dev.blocklab.workload.Workloads;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auditor over the whole registry, in one audit: every model and every framework variant at time scale
 * 1/100 (one blocking call of 10 ms per request for the models, four calls of 2 ms for the variants) and every
 * showcase case. Correct entries have no finding; {@code forkjoin:N} is flagged and marked as blocking by
 * design; each wrong showcase case has its rule at its line; each correct one is clean. The JFR threshold is
 * 1 ms, far below the default, so that a correct entry has every chance to be flagged wrongly.
 */
class AuditRegistryTest {
    private static final long SCALE = 100;
    private static final AuditSettings SETTINGS = new AuditSettings(1_000_000, 200_000_000, 20_000_000);
    private static final List<String> SIZED = List.of("fixed:4", "forkjoin:4", "forkjoin-managed:4", "cf-blocking:4", "cf-nonblocking:2");
    private static final String BY_DESIGN = "forkjoin:4";

    private static AuditResult audited;
    private static final List<String> correct = new ArrayList<>();
    private static final List<MisuseCase> cases = MisuseCases.all();

    @BeforeAll
    static void auditEverything() throws Exception {
        Workload calls = Workloads.resolve("hundred-calls").withArrival(new Arrival.Batch(24));
        Workload frameworks = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(8));
        RunSettings settings = new RunSettings(SCALE, 0, 1, 0, 42, 256);
        InProcessDriver driver = new InProcessDriver();
        try (Auditor auditor = Auditor.start(SETTINGS)) {
            for (Models.Info info : Models.catalog()) {
                if (info.unavailable().isPresent()) continue;
                String spec = info.needsSize() ? SIZED.stream().filter(s -> s.startsWith(info.family() + ":")).findFirst().orElseThrow() : info.family();
                driver.run(calls, spec, settings, Progress.NONE);
                if (!spec.equals(BY_DESIGN)) correct.add(spec);
            }
            FrameworksUseCase useCase = new FrameworksUseCase(1_000, 500);
            for (FrameworkVariants.Variant v : FrameworkVariants.all(FrameworkVariants.ARTICLE_POOL_200MS)) {
                if (v.unavailable().isPresent()) continue;
                String subject = "frameworks " + v.name();
                auditor.during(subject, () -> driver.run(frameworks, v.name(), c -> v.create(c.backend(), useCase), settings, Progress.NONE));
                correct.add(v.name());
            }
            for (MisuseCase c : cases) {
                long block = c.blockNanos(50_000_000L, SETTINGS.stallNanos());
                auditor.during(c.name(), () -> { c.run(4, block); return null; });
            }
            audited = auditor.finish();
        }
    }

    @Test
    void correctModelsAndVariants_haveNoFinding() {
        assertThat(correct).hasSizeGreaterThan(20);
        for (String subject : correct)
            assertThat(audited.of(subject)).as(subject + " is correct code: no finding").isEmpty();
    }

    @Test
    void forkJoinWithoutManagedBlocker_isFlaggedAsBlockingByDesign() {
        List<Finding> found = audited.of(BY_DESIGN);
        assertThat(found).isNotEmpty().allSatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER);
            assertThat(f.threadKind()).isEqualTo(ThreadKind.FORK_JOIN);
            assertThat(f.byDesign()).contains("blocking by design");
            assertThat(f.misuse()).isFalse();
        });
        assertThat(found.getFirst().culprit().className()).isEqualTo("dev.blocklab.backend.SimulatedBackend");
        assertThat(found.stream().mapToLong(Finding::count).sum()).as("24 calls of 10 ms, each a sleep on a worker").isGreaterThanOrEqualTo(20);
        assertThat(audited.notes()).anySatisfy(n -> assertThat(n).contains(BY_DESIGN).contains("blocking by design"));
        assertThat(audited.of("forkjoin-managed:4")).as("the same calls through ManagedBlocker").isEmpty();
    }

    @Test
    void showcase_eachWrongCaseHasItsRuleAtItsLine_eachCorrectOneIsClean() {
        for (MisuseCase c : cases) {
            List<Finding> found = audited.of(c.name());
            if (c.expected().isEmpty()) {
                assertThat(found).as(c.name() + " is the correct way: clean").isEmpty();
                continue;
            }
            MisuseCase.Expected e = c.expected().get();
            assertThat(e.line()).as(c.name() + " ran and captured its line").isPositive();
            assertThat(found).as(c.name() + " flagged " + e.rule().id() + " at " + e.className() + ":" + e.line())
                    .anySatisfy(f -> {
                        assertThat(f.rule()).isEqualTo(e.rule());
                        assertThat(f.culprit().className()).isEqualTo(e.className());
                        assertThat(f.culprit().line()).isEqualTo(e.line());
                        assertThat(f.misuse()).isTrue();
                    });
        }
        assertThat(audited.misuse()).isGreaterThanOrEqualTo(cases.stream().filter(c -> c.expected().isPresent()).count());
    }
}
