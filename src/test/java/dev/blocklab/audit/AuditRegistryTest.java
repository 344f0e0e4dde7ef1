package dev.blocklab.audit;

import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.Progress;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.frameworks.FrameworkVariants;
import dev.blocklab.frameworks.FrameworksUseCase;
import dev.blocklab.misuse.MisuseCase;
import dev.blocklab.misuse.MisuseCases;
import dev.blocklab.model.Models;
import dev.blocklab.server.BlocklabServer;
import dev.blocklab.server.ServerProfile;
import dev.blocklab.server.ServerSettings;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Workload;
import dev.blocklab.workload.Workloads;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auditor over the whole registry, in one audit: every model and every framework variant at time scale
 * 1/100 (one blocking call of 10 ms per request for the models, four calls of 2 ms for the variants), every
 * server profile answering the talk's three endpoints over HTTP, and every showcase case. Correct entries have no finding; {@code forkjoin:N} is flagged and marked as blocking by
 * design; each wrong showcase case has its rule at its line; each correct one is clean. The JFR threshold is
 * 5 ms, half the default, so that a correct entry has every chance to be flagged wrongly; not lower, because on
 * two shared cores a thread holding a queue's lock can be descheduled for a time slice (a few ms), and a server's
 * event loop handing a request to its pool then parks that long without any code being wrong (seen at 1 ms:
 * 1.5 ms on Vert.x's connection monitor and 3.3 ms on the pool queue's lock under serve threads:8, load 4 to 8).
 */
class AuditRegistryTest {
    private static final long SCALE = 100;
    private static final AuditSettings SETTINGS = new AuditSettings(5_000_000, 200_000_000, 20_000_000);
    private static final List<String> SIZED = List.of("fixed:4", "forkjoin:4", "forkjoin-managed:4", "cf-blocking:4", "cf-nonblocking:2");
    private static final String BY_DESIGN = "forkjoin:4";
    /** Scala's global pool blocked without {@code blocking { }}: seed 003's misuse, on the real library. */
    private static final String BY_DESIGN_SCALA = "scala-global";
    private static final List<String> PROFILES = List.of("play-2.5", "threads:8", "virtual", "event-loop");
    /** The server profiles whose blocking endpoint blocks where it should not, to show the harm. */
    private static final List<String> BY_DESIGN_PROFILES = List.of("play-2.5", "event-loop");

    private static AuditResult audited;
    private static final List<String> correct = new ArrayList<>();
    private static final List<String> correctProfiles = new ArrayList<>();
    private static final List<MisuseCase> cases = MisuseCases.all();

    @BeforeAll
    static void auditEverything() throws Exception {
        Workload calls = Workloads.resolve("hundred-calls").withArrival(new Arrival.Batch(24));
        Workload frameworks = FrameworksUseCase.workload(FrameworksUseCase.SLOW_DELAY_NANOS, new Arrival.Batch(8));
        RunSettings settings = new RunSettings(SCALE, 0, 1, 0, 42, 256);
        InProcessDriver driver = new InProcessDriver();
        try (Auditor auditor = Auditor.start(SETTINGS)) {
            for (dev.blocklab.model.ModelEntry info : Models.catalog()) {
                if (info.unavailable().isPresent()) continue;
                String spec = info.needsSize() ? SIZED.stream().filter(s -> s.startsWith(info.family() + ":")).findFirst().orElseThrow() : info.family();
                driver.run(calls, spec, settings, Progress.NONE);
                if (!spec.equals(BY_DESIGN) && !spec.equals(BY_DESIGN_SCALA)) correct.add(spec);
            }
            FrameworksUseCase useCase = new FrameworksUseCase(1_000, 500);
            for (FrameworkVariants.Variant v : FrameworkVariants.all(FrameworkVariants.ARTICLE_POOL_200MS)) {
                if (v.unavailable().isPresent()) continue;
                String subject = "frameworks " + v.name();
                auditor.during(subject, () -> driver.run(frameworks, v.name(), c -> v.create(c.backend(), useCase), settings, Progress.NONE));
                correct.add(v.name());
            }
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                for (String profile : PROFILES) {
                    ServerSettings serverSettings = ServerSettings.of(0, ServerProfile.parse(profile)).withTimeScale(SCALE).withLog(line -> {});
                    auditor.during("serve " + profile, () -> {
                        try (BlocklabServer server = BlocklabServer.start(serverSettings)) {
                            for (int i = 0; i < 3; i++)
                                for (String path : List.of("/sync-blocking", "/async-blocking", "/async-non-blocking")) {
                                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.uri().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
                                    assertThat(r.statusCode()).as(profile + path).isEqualTo(200);
                                }
                        }
                        return null;
                    });
                    if (!BY_DESIGN_PROFILES.contains(profile)) correctProfiles.add("serve " + profile);
                }
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
        assertThat(correctProfiles).containsExactly("serve threads:8", "serve virtual");
        for (String subject : correctProfiles)
            assertThat(audited.of(subject)).as(subject + ": only the talk's /async-blocking, which blocks the common pool on purpose")
                    .allSatisfy(f -> {
                        assertThat(f.rule()).isEqualTo(Rule.BLOCKING_ON_COMMON_POOL);
                        assertThat(f.misuse()).isFalse();
                    });
    }

    @Test
    void scalaGlobalWithoutBlocking_isFlaggedAsBlockingByDesign_andWithBlockingIsClean() {
        assertThat(audited.of(BY_DESIGN_SCALA)).isNotEmpty().allSatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER);
            assertThat(f.byDesign()).contains("scala-global-blocking");
            assertThat(f.misuse()).isFalse();
        });
        assertThat(correct).contains("scala-global-blocking");
        assertThat(audited.of("scala-global-blocking")).as("the same calls inside blocking { }").isEmpty();
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
        // the code that made the blocking call, not the simulated backend's sleep standing in for a client library
        assertThat(found.getFirst().culprit().className()).startsWith("dev.blocklab.").doesNotStartWith("dev.blocklab.backend.");
        assertThat(found.stream().mapToLong(Finding::count).sum()).as("24 calls of 10 ms, each a sleep on a worker").isGreaterThanOrEqualTo(20);
        assertThat(audited.notes()).anySatisfy(n -> assertThat(n).contains(BY_DESIGN).contains("blocking by design"));
        assertThat(audited.of("forkjoin-managed:4")).as("the same calls through ManagedBlocker").isEmpty();
    }

    @Test
    void serverProfilesThatBlockOnPurpose_areFlaggedAsByDesign() {
        for (String profile : BY_DESIGN_PROFILES) {
            List<Finding> found = audited.of("serve " + profile);
            assertThat(found).as(profile + ": /sync-blocking blocks where the profile runs handlers").isNotEmpty()
                    .allSatisfy(f -> assertThat(f.misuse()).as(f.toString()).isFalse());
        }
        assertThat(audited.of("serve event-loop")).anySatisfy(f -> assertThat(f.rule()).isEqualTo(Rule.BLOCKING_ON_EVENT_LOOP));
        assertThat(audited.of("serve play-2.5")).anySatisfy(f -> assertThat(f.rule()).isEqualTo(Rule.FORK_JOIN_WITHOUT_MANAGED_BLOCKER));
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
