package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTML report against golden files in {@code src/test/resources/golden/html}. After an intended change to
 * the page, regenerate them with {@code ./mvnw -o verify -Dtest='HtmlReportGoldenTest' -Dgolden.update=true}
 * and review the diff.
 */
class HtmlReportGoldenTest {
    static String page() {
        return new HtmlReport(SyntheticResults.TIMESTAMP).renderPage("golden",
                List.of(SyntheticResults.standard(), SyntheticResults.handMade()));
    }

    @Test void renderPage_syntheticResults_matchesGoldenFile() {
        Golden.assertMatches("html/two-experiments.html", page());
    }

    @Test void render_oneResultWithoutTimestamp_matchesGoldenFile() {
        Golden.assertMatches("html/hand-made.html", ReportFormat.HTML.create().render(SyntheticResults.handMade()));
    }

    @Test void renderPage_otherDefaultLocale_sameBytes() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            String german = page();
            Locale.setDefault(Locale.ROOT);
            assertThat(german).isEqualTo(page());
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test void render_sevenArgumentResult_hasNoCharts() {
        ExperimentResult r = new ExperimentResult("plain", "no charts", "quick", SyntheticResults.MACHINE, List.of(), List.of(), List.of("n"));
        assertThat(r.charts()).isEmpty();
        assertThat(new HtmlReport(null).render(r)).contains("<li>n</li>").doesNotContain("<svg").doesNotContain("Reported");
    }
}
