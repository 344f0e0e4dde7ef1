package dev.blocklab.report;

import dev.blocklab.result.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CsvReportTest {

    @Test
    void pairedNumbers_becomeTwoColumns() {
        Table table = new Table("t", List.of("model", "ctx sw vol/invol", "rate /s (of capacity)", "cancels honoured/requested"),
                List.of(List.of("virtual", "1,643/163", "90 (45 %)", ""),
                        List.of("fixed:2", "439/155", "180 (90 %)", "3/4")));
        Table split = CsvReport.splitPairs(table);
        assertThat(split.columns()).containsExactly("model", "ctx sw vol", "ctx sw invol", "rate /s", "rate /s (of capacity, %)",
                "cancels honoured", "cancels requested");
        assertThat(split.rows().get(0)).containsExactly("virtual", "1,643", "163", "90", "45", "", "");
        assertThat(split.rows().get(1)).containsExactly("fixed:2", "439", "155", "180", "90", "3", "4");
    }

    @Test
    void aCellNotMeasured_orAnUnknownCount_isEmptyInBothHalves() {
        Table table = new Table("t", List.of("model", "ctx sw vol/invol"),
                List.of(List.of("virtual", "-"), List.of("fixed:2", "-1/-1"), List.of("cached", "12/3")));
        Table split = CsvReport.splitPairs(table);
        assertThat(split.columns()).containsExactly("model", "ctx sw vol", "ctx sw invol");
        assertThat(split.rows()).containsExactly(List.of("virtual", "", ""), List.of("fixed:2", "", ""), List.of("cached", "12", "3"));
    }

    @Test
    void aColumnWithAnyOtherCell_staysWhole() {
        Table table = new Table("t", List.of("measured/predicted", "a/b", "in flight (Little)", "empty/col"),
                List.of(List.of("1.11 x", "3/4", "1.14", ""), List.of("0.98 x", "n/a", "2.00", "")));
        assertThat(CsvReport.splitPairs(table)).isEqualTo(table);
    }

    @Test
    void render_writesTheSplitColumns_asPlainNumbers() {
        Table table = new Table("runs", List.of("model", "ctx sw vol/invol"), List.of(List.of("virtual", "1,643/163")));
        var result = new dev.blocklab.result.ExperimentResult("run", "d", "s", dev.blocklab.result.Environment.current(),
                List.of(), List.of(table), List.of(), List.of());
        assertThat(new CsvReport().render(result)).isEqualTo("table,model,ctx sw vol,ctx sw invol\nruns,virtual,1643,163\n");
    }
}
