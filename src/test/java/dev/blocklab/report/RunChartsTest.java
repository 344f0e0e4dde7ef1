package dev.blocklab.report;

import dev.blocklab.result.Chart;
import dev.blocklab.result.Series;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RunChartsTest {
    static String encoded(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    @Test void spectrum_thousandValues_fourStepsPerDecadeUpToP999() {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 1000; i++) h.recordValue(i * 1_000_000L);
        List<Series.Point> points = Series.spectrum(h);
        assertThat(points).hasSize(13);
        assertThat(points.getFirst().x()).isEqualTo(1.0);
        assertThat(points.getLast().x()).isCloseTo(1000, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(points.get(4).y()).isCloseTo(900, org.assertj.core.data.Offset.offset(1.0)); // x = 10: p90
        for (int i = 1; i < points.size(); i++) assertThat(points.get(i).y()).isGreaterThanOrEqualTo(points.get(i - 1).y());
    }

    @Test void decode_roundTripsAndToleratesGarbage() {
        Histogram h = new Histogram(3);
        h.recordValue(42_000);
        assertThat(RunCharts.decode(encoded(h)).getTotalCount()).isEqualTo(1);
        assertThat(RunCharts.decode("not base64!")).isNull();
        assertThat(RunCharts.decode(null)).isNull();
    }

    @Test void standard_runs_sevenChartsEachWithCaptionAndOneEntryPerRun() {
        List<LabelledRun> runs = List.of(
                new LabelledRun("a", DeviationTest.run("fixed:8", 100, 100, 1300, 1300, 500, 8, 20, 10, 10)),
                new LabelledRun("b", DeviationTest.run("cached", 10_000, 10_000, 700, 100, 50, 10_000, 4000, 10, 10)));
        List<Chart> charts = RunCharts.standard("s", runs);
        assertThat(charts).hasSize(7).allSatisfy(c -> {
            assertThat(c.caption()).isNotBlank();
            assertThat(c.title()).startsWith("s: ");
        });
        Chart.BarChart threads = (Chart.BarChart) charts.stream().filter(c -> c.title().equals("s: threads")).findFirst().orElseThrow();
        assertThat(threads.categories()).containsExactly("a", "b");
        assertThat(threads.logY()).isTrue(); // 8 to 10,000 threads spans more than 30x
        assertThat(((Chart.BarChart) charts.getFirst()).bars().getFirst().values()).containsExactly(1300.0, 700.0);
    }

    @Test void wallTime_anOpenRunComparesItsMeanLatency_notTheSchedulesLengthWithOneRequestsPrediction() {
        // an open run of 4 s whose prediction is one request's 735 ms: its bars once read 1,907 ms (the wall time)
        // beside 735 ms, a 2.6 x gap the text table reported as 1.03 x
        var batch = DeviationTest.run("fixed:8", 100, 100, 1300, 1300, 500, 8, 20, 10, 10);
        var r = DeviationTest.run("fixed:4", 800, 800, 1907, 735, 757, 4, 20, 10, 1);
        var open = new dev.blocklab.result.RunResult(r.model(), r.workload(), "open 200/s for 4s", dev.blocklab.result.ArrivalKind.OPEN,
                1, null, r.counts(), r.timing(), r.repeats(), r.prediction(), r.resources(), null);

        Chart.BarChart onlyOpen = (Chart.BarChart) RunCharts.wallTime("s", List.of(new LabelledRun("open", open)));
        assertThat(onlyOpen.title()).isEqualTo("s: mean latency, measured beside predicted");
        assertThat(onlyOpen.bars().get(0).values()).containsExactly(757.0);
        assertThat(onlyOpen.bars().get(1).values()).containsExactly(735.0);

        Chart.BarChart mixed = (Chart.BarChart) RunCharts.wallTime("s", List.of(new LabelledRun("batch", batch), new LabelledRun("open", open)));
        assertThat(mixed.title()).isEqualTo("s: wall time or mean latency, measured beside predicted");
        assertThat(mixed.bars().get(0).values()).containsExactly(1300.0, 757.0);
        assertThat(mixed.caption()).contains("for open and closed arrivals, the mean latency");
    }
}
