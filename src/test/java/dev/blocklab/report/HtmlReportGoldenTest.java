package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTML report against golden files in {@code src/test/resources/golden/html}. After an intended change to
 * the page, regenerate them with {@code ./mvnw -o verify -Dtest='HtmlReportGoldenTest' -Dgolden.update=true}
 * and review the diff.
 */
class HtmlReportGoldenTest {
    static final Path GOLDEN = Path.of("src/test/resources/golden/html");

    static String page() {
        return new HtmlReport(SyntheticResults.TIMESTAMP).renderPage("golden",
                List.of(SyntheticResults.standard(), SyntheticResults.handMade()));
    }

    @Test void renderPage_syntheticResults_matchesGoldenFile() throws IOException {
        assertGolden("two-experiments.html", page());
    }

    @Test void render_oneResultWithoutTimestamp_matchesGoldenFile() throws IOException {
        assertGolden("hand-made.html", ReportFormat.HTML.create().render(SyntheticResults.handMade()));
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

    static void assertGolden(String name, String actual) throws IOException {
        Path file = GOLDEN.resolve(name);
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(file, actual);
        }
        assertThat(file).as("golden file %s (regenerate with -Dgolden.update=true)", file).exists();
        assertThat(actual).as("HTML differs from %s; if intended, regenerate with -Dgolden.update=true", file)
                .isEqualTo(Files.readString(file));
    }
}
