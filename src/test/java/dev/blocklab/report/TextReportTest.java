package dev.blocklab.report;

import dev.blocklab.result.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TextReportTest {
    /** A seed table as frameworks lays it out: the article's figure last, after wide columns of its own. */
    private static Table seedTable(String articleColumn) {
        List<String> row = List.of("closed 200ms", "frameworks-supplyasync:16", "1500", "100.00", "1193", "1190", "1250",
                "35.00", "12.40", "216", "216", "platform request thread, event loop", "2100");
        return new Table("Seed 002 use case per variant", List.of("load, delay", "variant", "requests", "ok %", "avg ms",
                "p50 ms", "p99 ms", "req/s", "cpu ms/req", "peak threads", "threads started", "cpu step on", articleColumn),
                List.of(row, row));
    }

    @Test void layout_tooWide_keepsEveryColumnOfTheArticlesFigures() {
        for (String article : List.of("article ms", "article avg ms", "talk p99 ms")) {
            String text = TextReport.layout(seedTable(article), 120);
            assertThat(text).as(article).contains("more columns with --wide");
            assertThat(text.lines().findFirst().orElseThrow()).as(article).contains(article).contains("p99 ms");
        }
    }

    @Test void layout_tooWide_keepsTheMeasuredSuccessAndThePredictionBesideTheTalks() {
        List<String> row = List.of("/async-non-blocking", "play-2.5", "1,000/s", "1000", "100.00", "100.00", "100.00", "62.6",
                "51.6", "80.5", "52.2", "50.0", "200 x1000 (attacker fell behind)");
        Table table = new Table("The talk's attacks", List.of("endpoint", "profile", "rate", "requests", "success %", "talk %",
                "predicted %", "p50 ms", "talk p50 ms", "p99 ms", "talk p99 ms", "predicted p50 ms", "statuses"), List.of(row, row));
        String header = TextReport.layout(table, 120).lines().findFirst().orElseThrow();
        // the talk's columns rank as the article's; the measured success and the prediction beside them are essential too
        assertThat(header).contains("success %", "talk %", "predicted %", "p99 ms", "talk p99 ms");
    }

    @Test void essentialRank_articleColumnsRankAsArticleMs() {
        assertThat(TextReport.essentialRank("article best ms")).isEqualTo(TextReport.essentialRank("article ms"));
        assertThat(TextReport.essentialRank("talk %")).isEqualTo(TextReport.essentialRank("article ms"));
        assertThat(TextReport.essentialRank("statuses")).isEqualTo(-1);
    }
}
