package dev.blocklab.attack;

import dev.blocklab.report.AttackReportFormat;
import dev.blocklab.result.Table;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AttackExperimentTest {
    /** A saved attack is rebuilt by 'blocklab report' from this table: it must keep the instrument's lines. */
    @Test
    void summary_keepsEveryInstrumentLineOfTheLiveReport_withTheSameValues() {
        var result = AttackResults.sample(3, 0);
        String live = AttackReportFormat.TEXT.create().render(result);
        Table saved = AttackExperiment.summary(result);
        List<String> names = saved.rows().stream().map(List::getFirst).toList();
        assertThat(names).contains("Late sends", "Own delay", "Conn wait", "From send", "Own load");
        for (List<String> row : saved.rows()) {
            if (!List.of("Late sends", "Own delay", "Conn wait", "From send", "Own load", "Lag causes", "Retried").contains(row.getFirst())) continue;
            // the live line: name, legend and values in columns
            String line = live.lines().filter(l -> l.startsWith(row.getFirst() + " ")).findFirst().orElseThrow();
            assertThat(line).as(row.getFirst()).contains(row.get(1)).endsWith(row.get(2));
        }
    }

    /** Rates as every report writes them (Rates.number with its unit), the same in the live report and the saved one. */
    @Test
    void requestsRow_writesRatesAsEveryReport_liveAndSavedAlike() {
        var result = AttackResults.sample(3, 0);
        String live = AttackReportFormat.TEXT.create().render(result);
        String expected = "1000, 100/s, 97.3/s";   // the sample's 1,000 requests sent at 100.1/s, answered at 97.25/s
        List<String> saved = AttackExperiment.summary(result).rows().stream().filter(r -> r.getFirst().equals("Requests")).findFirst().orElseThrow();
        assertThat(saved.get(2)).isEqualTo(expected);
        assertThat(live.lines().filter(l -> l.startsWith("Requests ")).findFirst().orElseThrow()).endsWith("  " + expected);
    }

    @Test
    void notes_sayTheLiveVerdictWordForWord() {
        var limited = AttackResults.sample(50, 7);   // 7 of 1007 never sent
        var saved = AttackExperiment.of(limited, List.of(), 1_000_000_000L, dev.blocklab.result.Environment.current());
        assertThat(saved.notes()).anySatisfy(n -> assertThat(n).startsWith(limited.health().verdictLine())
                .endsWith("The target saw a lower rate than asked."));
        assertThat(AttackReportFormat.TEXT.create().render(limited)).startsWith(limited.health().verdictLine());
        // 'report' of the saved attack says it in its first line too, not only among the notes at the end
        String rebuilt = dev.blocklab.report.ReportFormat.TEXT.create(200).render(saved);
        assertThat(rebuilt.lines().findFirst().orElseThrow()).contains("INSTRUMENT-LIMITED");
        var ok = AttackResults.sample(3, 0);
        var okSaved = AttackExperiment.of(ok, List.of(), 1_000_000_000L, dev.blocklab.result.Environment.current());
        assertThat(okSaved.notes()).noneMatch(n -> n.contains("INSTRUMENT-LIMITED") || n.contains("lower rate"));
        assertThat(okSaved.scale()).isEqualTo("real time");
    }
}
