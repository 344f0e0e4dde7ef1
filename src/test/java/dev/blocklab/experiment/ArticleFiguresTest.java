package dev.blocklab.experiment;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArticleFiguresTest {
    @Test
    void millis_table_namesInTheTablesOrderWithTheirFiguresAndNullForADash() {
        Map<String, Double> figures = ArticleFigures.millis("sequential 100122, fixed:8 13057,virtual -");
        assertThat(figures.keySet()).containsExactly("sequential", "fixed:8", "virtual");
        assertThat(figures.get("sequential")).isEqualTo(100_122.0);
        assertThat(figures.get("fixed:8")).isEqualTo(13_057.0);
        assertThat(figures).containsKey("virtual");
        assertThat(figures.get("virtual")).isNull();
    }

    @Test
    void millis_rowWithoutAFigure_namesTheRow() {
        assertThatThrownBy(() -> ArticleFigures.millis("sequential 2100, invokeall"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'invokeall'");
    }

    @Test
    void millis_theExperimentsTables_asTheArticlesPrintThem() {
        assertThat(HundredCallsExperiment.ARTICLE_MILLIS).hasSize(9).containsEntry("forkjoin-managed:16", 1_069.0);
        assertThat(FrameworksExperiment.ARTICLE_200MS).hasSize(8).containsEntry("pekko-blocking", 3_000.0);
        assertThat(TenThousandJobsExperiment.ARTICLE_BEST_MILLIS).as("the best of the article's top 10, not its rounded ~700 ms")
                .containsEntry("cached", 694.0).containsEntry("virtual", 121.0);
        assertThat(FrameworksExperiment.ARTICLE_400MS).containsExactly(Map.entry("sequential", 2_600.0), Map.entry("invokeall", 3_000.0));
    }

    @Test
    void taskGraph_eachStyleCarriesItsListing6Time_theUnhappyPathNone() {
        assertThat(TaskGraphExperiment.articleMillis(TaskGraphStyles.BLOCKING, false)).isEqualTo(5_008.0);
        assertThat(TaskGraphExperiment.articleMillis(TaskGraphStyles.NON_BLOCKING, false)).isEqualTo(5_002.0);
        assertThat(TaskGraphExperiment.articleMillis(TaskGraphStyles.REFACTORED, false)).isEqualTo(5_001.0);
        for (TaskGraphStyles style : TaskGraphStyles.values())
            assertThat(TaskGraphExperiment.articleMillis(style, true)).as("the article did not time the failure").isNull();
    }
}
