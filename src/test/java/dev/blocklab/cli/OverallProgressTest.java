package dev.blocklab.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class OverallProgressTest {
    private static final long S = 1_000_000_000L;
    private final AtomicLong clock = new AtomicLong();
    private final List<String> lines = new ArrayList<>();

    private OverallProgress progress(long... estimates) {
        return new OverallProgress(lines::add, clock::get, "experiment", List.of("a", "b", "c"), estimates);
    }

    @Test void status_estimatesShareAndTimeLeft_fromTheEstimates() {
        OverallProgress p = progress(10 * S, 20 * S, 10 * S);
        p.begin(0);
        assertThat(lines.getLast()).isEqualTo("experiment 1/3 a, 0 %, ~40 s left");
        clock.addAndGet(5 * S);
        p.update("running");
        assertThat(lines.getLast()).isEqualTo("experiment 1/3 a, 12 %, ~35 s left | running");
    }

    @Test void status_correctsTheRestByHowTheFinishedStepsCompared() {
        OverallProgress p = progress(10 * S, 20 * S, 10 * S);
        p.begin(0);
        clock.addAndGet(20 * S);       // twice its estimate: the rest will likely take twice theirs
        assertThat(p.end()).isEqualTo(20 * S);
        p.begin(1);
        clock.addAndGet(10 * S);
        // left: 2 x 20 - 10 = 30 for b, 2 x 10 = 20 for c; done 30 of 80
        assertThat(p.status()).isEqualTo("experiment 2/3 b, 37 %, ~50 s left");
    }

    @Test void status_neverClaimsDoneWhileRunning_norNegativeTimeLeft() {
        OverallProgress p = progress(1 * S, 1 * S, 1 * S);
        p.begin(2);
        clock.addAndGet(S / 2);
        assertThat(p.status()).isEqualTo("experiment 3/3 c, 50 %, ~1 s left");   // half of c (a and b never ran); 0.5 s rounds up
        clock.addAndGet(S / 2);
        assertThat(p.status()).isEqualTo("experiment 3/3 c, 99 %, ~0 s left");
    }

    @Test void status_pastItsEstimate_saysHowFarInsteadOfNearlyDone() {
        OverallProgress p = progress(1 * S, 4 * S, 0);
        p.begin(0);
        clock.addAndGet(13 * S);   // an overloaded model draining its backlog long after its predicted wall time
        assertThat(p.status()).isEqualTo("experiment 1/3 a, 13 s in, past its estimate of ~1 s; no estimate yet for the rest (c has not run at this scale before)");
        p.end();
        p.begin(1);
        clock.addAndGet(60 * S);   // b's estimate corrected 13-fold: 52 s
        assertThat(p.status()).isEqualTo("experiment 2/3 b, 60 s in, past its estimate of ~52 s; no estimate yet for the rest (c has not run at this scale before)");
        OverallProgress q = progress(1 * S, 2 * S, 3 * S);
        q.begin(0);
        clock.addAndGet(2 * S);
        assertThat(q.status()).isEqualTo("experiment 1/3 a, 2 s in, past its estimate of ~1 s; ~5 s for the rest");
        q.end();
        q.begin(2);
        clock.addAndGet(7 * S);
        assertThat(q.status()).isEqualTo("experiment 3/3 c, 7 s in, past its estimate of ~6 s");
        OverallProgress quick = progress(S / 10, S / 10, S / 10);   // a model predicted at 0.1 s (time scale 100)
        quick.begin(2);
        clock.addAndGet(2 * S);
        assertThat(quick.status()).isEqualTo("experiment 3/3 c, 2 s in, past its estimate of under 1 s");
    }

    @Test void status_withoutAnEstimate_saysSoInsteadOfGuessing() {
        OverallProgress p = progress(10 * S, 0, 10 * S);
        p.begin(0);
        clock.addAndGet(3 * S);
        assertThat(p.status()).isEqualTo("experiment 1/3 a, 30 % of it, ~7 s left in it; no estimate yet for the rest (b has not run at this scale before)");
        p.end();
        p.begin(1);
        clock.addAndGet(4 * S);
        assertThat(p.status()).isEqualTo("experiment 2/3 b, 4 s in, no estimate yet (b has not run at this scale before)");
    }

    @Test void durationHistory_remembersAcrossLoads(@TempDir Path dir) {
        String previous = System.getProperty("blocklab.durations");
        System.setProperty("blocklab.durations", dir.resolve("d.properties").toString());
        try {
            DurationHistory h = DurationHistory.load();
            assertThat(h.nanos("reproduce.x.delays-10.simulated")).isZero();
            h.record("reproduce.x.delays-10.simulated", 42 * S);
            assertThat(DurationHistory.load().nanos("reproduce.x.delays-10.simulated")).isEqualTo(42 * S);
        } finally {
            if (previous == null) System.clearProperty("blocklab.durations");
            else System.setProperty("blocklab.durations", previous);
        }
    }

    @Test void interruptedSummary_namesWhatFinishedAndWhereItIsSaved(@TempDir Path dir) throws Exception {
        Path saved = java.nio.file.Files.writeString(dir.resolve("r.jsonl"), "{}\n");
        assertThat(Interrupted.summary("experiments", List.of("a", "b", "c"), 1, 1, saved, Path.of("r.html")))
                .isEqualTo("blocklab: interrupted during b (2 of 3 experiments); finished 1 of 3 experiments: a; saved to " + saved
                        + " and r.html (rebuild the report: blocklab report " + saved + ")");
        assertThat(Interrupted.summary("entries", List.of("fixed:4", "fixed:4"), 1, 1, saved, null))
                .as("a name given twice: the second one runs")
                .startsWith("blocklab: interrupted during fixed:4 (2 of 2 entries); finished 1 of 2 entries: fixed:4; saved to ");
        assertThat(Interrupted.summary("experiments", List.of("a", "b"), 3, -1, saved, null))
                .as("all done, and one more result (the audit's)").startsWith("blocklab: interrupted; finished 2 of 2 experiments: a, b; saved");
    }

    @Test void interruptedSummary_withNothingSaved_offersNoReport(@TempDir Path dir) throws Exception {
        Path empty = java.nio.file.Files.createFile(dir.resolve("r.jsonl"));
        assertThat(Interrupted.summary("models", List.of("virtual"), 0, 0, empty, null))
                .isEqualTo("blocklab: interrupted during virtual (1 of 1 models); finished 0 of 1 models; nothing saved yet (" + empty + " is empty)");
        java.nio.file.Files.delete(empty);   // as ResultsFile.removeIfEmpty leaves it
        assertThat(Interrupted.summary("models", List.of("virtual"), 0, 0, empty, null))
                .isEqualTo("blocklab: interrupted during virtual (1 of 1 models); finished 0 of 1 models; nothing saved");
    }
}
