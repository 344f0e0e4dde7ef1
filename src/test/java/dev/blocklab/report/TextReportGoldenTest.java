package dev.blocklab.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The text report of the synthetic result, every column and at 80 columns, against golden files. */
class TextReportGoldenTest {
    @Test void render_syntheticResultWide_matchesGoldenFile() {
        Golden.assertMatches("text/synthetic-wide.txt", ReportFormat.TEXT.create().render(SyntheticResults.standard()));
    }

    @Test void render_syntheticResultAt80Columns_matchesGoldenFileAndFits() {
        String text = ReportFormat.TEXT.create(80).render(SyntheticResults.standard());
        Golden.assertMatches("text/synthetic-80.txt", text);
        assertThat(text.lines().filter(l -> l.length() > 80 && !l.startsWith("- ") && !l.startsWith("  ")).toList())
                .as("table lines longer than 80 columns").isEmpty();
    }
}
