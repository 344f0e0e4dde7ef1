package dev.blocklab.report;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CSV report against {@code golden/csv/synthetic.csv}, and read back by an RFC 4180 parser: one header, every
 * record as wide as it, every table's cells under their own column names. Regenerate after an intended change
 * with {@code -Dgolden.update=true} and review the diff.
 */
class CsvReportGoldenTest {
    @Test void render_syntheticResult_matchesGoldenFile() {
        Golden.assertMatches("csv/synthetic.csv", ReportFormat.CSV.create().render(SyntheticResults.standard()));
    }

    @Test void render_syntheticResult_oneRectangularTableWithATableColumn() {
        ExperimentResult result = SyntheticResults.standard();
        List<List<String>> records = parse(ReportFormat.CSV.create().render(result));
        List<String> header = records.getFirst();
        assertThat(header.getFirst()).isEqualTo("table");
        assertThat(header).contains("ctx sw vol", "ctx sw invol").doesNotContain("ctx sw vol/invol");   // paired numbers, two columns
        assertThat(records).allSatisfy(r -> assertThat(r).hasSameSizeAs(header));
        assertThat(records).hasSize(1 + result.tables().stream().mapToInt(t -> t.rows().size()).sum());
        int record = 1;
        for (Table table : result.tables().stream().map(CsvReport::splitPairs).toList())   // paired numbers as two columns
            for (List<String> row : table.rows()) {
                List<String> read = records.get(record++);
                assertThat(read.getFirst()).isEqualTo(table.title());
                for (int c = 0; c < row.size(); c++)
                    assertThat(read.get(header.indexOf(table.columns().get(c)))).as(table.columns().get(c)).isEqualTo(CsvReport.ungrouped(row.get(c)));
            }
    }

    @Test void render_quotesAndCommas_escapedAndTheTableColumnNameKeptFree() {
        Table t = new Table("a, \"quoted\" title", List.of("table", "x", "x"), List.of(List.of("t", "1,5", "line\nbreak")));
        ExperimentResult r = new ExperimentResult("e", "d", "s", null, List.of(), List.of(t), List.of());
        List<List<String>> records = parse(ReportFormat.CSV.create().render(r));
        assertThat(records.getFirst()).containsExactly("table", "table (column)", "x", "x (2)");
        assertThat(records.get(1)).containsExactly("a, \"quoted\" title", "t", "1,5", "line\nbreak");
    }

    @Test void render_numbersGroupedByThousands_areWrittenAsNumbers_otherCommasKept() {
        // capacity's "9,059" req/s was a quoted string to every data-frame reader
        Table t = new Table("t", List.of("rate", "other"), List.of(List.of("9,059", "1,5"), List.of("1,234,567.5", ">= 400"), List.of("-12,000", "a,bcd"),
                List.of("1.11 x", "2.40 x: pool saturated"), List.of("114 (mean latency)", "- (stopped early)")));
        ExperimentResult r = new ExperimentResult("e", "d", "s", null, List.of(), List.of(t), List.of());
        List<List<String>> records = parse(ReportFormat.CSV.create().render(r));
        assertThat(records.subList(1, 6)).containsExactly(List.of("t", "9059", "1,5"), List.of("t", "1234567.5", ">= 400"), List.of("t", "-12000", "a,bcd"),
                List.of("t", "1.11", "2.40"), List.of("t", "114", "- (stopped early)"));
    }

    /** A small RFC 4180 reader: quoted fields with doubled quotes, commas and line breaks inside them. */
    static List<List<String>> parse(String csv) {
        List<List<String>> records = new ArrayList<>();
        List<String> record = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < csv.length(); i++) {
            char ch = csv.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') { field.append('"'); i++; }
                else if (ch == '"') quoted = false;
                else field.append(ch);
            } else if (ch == '"') quoted = true;
            else if (ch == ',') { record.add(field.toString()); field.setLength(0); }
            else if (ch == '\n') { record.add(field.toString()); field.setLength(0); records.add(record); record = new ArrayList<>(); }
            else field.append(ch);
        }
        assertThat(field).as("the last record ends with a line break").isEmpty();
        return records;
    }
}
