package dev.blocklab.experiment;

import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.Table;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Seed 000, Figure 2: what a blocking hand-off between threads costs, for rings of 1 to 4,096 threads with 0 to
 * 64 KB of data each, on platform threads (as the article) and on virtual threads. Every point is one
 * {@link ThreadRing} run; rows are {@link ThreadSwitchRow}s.
 */
final class ThreadSwitchExperiment implements Experiment {
    static final long ARTICLE_HANDOFFS = 1_638_400;
    static final double ARTICLE_MICROS_AT_16_KB = 12.5;
    /** The ring the article's figure is compared at: its "moderate number of threads". */
    static final int MODERATE_THREADS = 16;
    static final int KEY_BLOCK_BYTES = 16 * 1024;
    static final int WARMUP_BLOCK_BYTES = 4 * 1024;
    static final List<Integer> WARMUP_THREADS = List.of(1, 16);
    static final List<ThreadSwitchVariant> VARIANTS = List.of(ThreadSwitchVariant.values());

    /**
     * Which points to measure.
     *
     * @param threadCounts ring sizes, ascending
     * @param blockBytes   block sizes in bytes, ascending, multiples of 4
     * @param handoffs     turns per point, a multiple of every ring size and of the warm-up rings' sizes
     * @param label        how the notes describe this scale
     */
    record RingScale(List<Integer> threadCounts, List<Integer> blockBytes, long handoffs, String label) {
        RingScale {
            threadCounts = List.copyOf(threadCounts);
            blockBytes = List.copyOf(blockBytes);
            if (threadCounts.isEmpty() || blockBytes.isEmpty()) throw new IllegalArgumentException("empty scale");
            for (int n : threadCounts)
                if (n < 1 || handoffs % n != 0) throw new IllegalArgumentException(handoffs + " hand-offs do not split over " + n + " threads");
            for (int n : WARMUP_THREADS)
                if (handoffs % n != 0) throw new IllegalArgumentException(handoffs + " hand-offs do not split over " + n + " warm-up threads");
            for (int b : blockBytes)
                if (b < 0 || b % Integer.BYTES != 0) throw new IllegalArgumentException("block of " + b + " bytes is not whole ints");
        }
    }

    static final RingScale FULL = new RingScale(
            List.of(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096),
            List.of(0, 1024, 4 * 1024, 16 * 1024, 64 * 1024), ARTICLE_HANDOFFS,
            "full: the article's points, N = 1, 2, 4, ... 4096 and blocks of 0, 1, 4, 16 and 64 KB, 1,638,400 hand-offs each");
    static final RingScale QUICK = new RingScale(
            List.of(1, 2, 4, 16, 256, 4096), List.of(0, 16 * 1024), ARTICLE_HANDOFFS / 16,
            "quick: N = 1, 2, 4, 16, 256 and 4096 (of 1, 2, 4, ... 4096), blocks of 0 and 16 KB (of 0, 1, 4, 16, 64),"
                    + " 102,400 hand-offs a point (1/16 of the article's 1,638,400); --full runs the article's points");

    private final RingScale quick;
    private final RingScale full;

    ThreadSwitchExperiment() { this(QUICK, FULL); }

    /** With other scales, for tests. */
    ThreadSwitchExperiment(RingScale quick, RingScale full) {
        this.quick = quick;
        this.full = full;
    }

    @Override public String name() { return "thread-switch"; }

    @Override public boolean usesTimeScale() { return false; }

    @Override public String description() {
        return "seed 000 Figure 2: cost of a blocking hand-off in a ring of 1 to 4,096 threads, platform and virtual";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) throws InterruptedException {
        RingScale scale = settings.full() ? full : quick;
        int points = VARIANTS.size() * scale.threadCounts().size() * scale.blockBytes().size();
        long timeoutNanos = Math.max(TimeUnit.SECONDS.toNanos(60), scale.handoffs() * 250_000);
        List<ThreadSwitchRow> rows = new ArrayList<>();
        Map<String, ThreadSwitchRow> byPoint = new HashMap<>();
        for (ThreadSwitchVariant variant : VARIANTS) {
            for (int n : WARMUP_THREADS) {
                settings.progress().update(variant.label() + ": warm-up, " + n + " threads");
                measure(variant, n, WARMUP_BLOCK_BYTES, scale.handoffs(), timeoutNanos);
            }
            for (int blockBytes : scale.blockBytes()) {
                for (int n : scale.threadCounts()) {
                    settings.progress().update(String.format(Locale.ROOT, "%s, %s, %d threads [%d/%d]",
                            variant.label(), size(blockBytes), n, rows.size() + 1, points));
                    ThreadSwitchRow row = ThreadSwitchRow.of(measure(variant, n, blockBytes, scale.handoffs(), timeoutNanos));
                    settings.rowSink().accept(row);
                    rows.add(row);
                    byPoint.put(key(variant.label(), n, blockBytes), row);
                }
            }
        }
        List<Table> tables = new ArrayList<>();
        for (ThreadSwitchVariant variant : VARIANTS)
            tables.add(grid(variant.label() + ": microseconds per switch (" + variant.description() + ")",
                    scale, (n, b) -> micros(byPoint.get(key(variant.label(), n, b)).microsPerSwitch())));
        tables.add(ratioTable(ThreadSwitchVariant.PLATFORM_FUTURE, ThreadSwitchVariant.VIRTUAL_FUTURE, scale, byPoint));
        tables.add(ratioTable(ThreadSwitchVariant.PLATFORM_MONITOR, ThreadSwitchVariant.VIRTUAL_CONDITION, scale, byPoint));
        // the article's figure is for "a moderate number of threads": 16, where the scale has it
        List<Integer> counts = scale.threadCounts();
        int keyThreads = counts.contains(MODERATE_THREADS) ? MODERATE_THREADS : counts.get(counts.size() / 2);
        int keyBytes = scale.blockBytes().contains(KEY_BLOCK_BYTES) ? KEY_BLOCK_BYTES : scale.blockBytes().getLast();
        tables.add(keyTable(keyThreads, keyBytes, byPoint));
        return new ExperimentResult(name(), description(), settings.full() ? "full" : "quick", settings.environment(),
                rows, tables, notes(scale, rows, keyThreads, keyBytes, byPoint)).withCharts(figure2(rows));
    }

    private static ThreadRing.Lap measure(ThreadSwitchVariant variant, int threads, int blockBytes, long handoffs,
                                          long timeoutNanos) throws InterruptedException {
        System.gc(); // the previous ring's blocks, so a collection is less likely inside the timed part
        try (ThreadRing ring = new ThreadRing(variant, threads, blockBytes / Integer.BYTES, handoffs, false)) {
            ThreadRing.Lap lap = ring.run(timeoutNanos);
            if (lap.handoffs() != handoffs || lap.sumsChecked() != handoffs)
                throw new IllegalStateException(variant.label() + " ring of " + threads + ": " + lap.handoffs()
                        + " hand-offs and " + lap.sumsChecked() + " sums checked, expected " + handoffs);
            return lap;
        }
    }

    private interface Cell { String at(int threads, int blockBytes); }

    private static Table grid(String title, RingScale scale, Cell cell) {
        List<String> columns = new ArrayList<>();
        columns.add("threads");
        for (int b : scale.blockBytes()) columns.add(size(b));
        List<List<String>> cells = new ArrayList<>();
        for (int n : scale.threadCounts()) {
            List<String> line = new ArrayList<>();
            line.add(String.valueOf(n));
            for (int b : scale.blockBytes()) line.add(cell.at(n, b));
            cells.add(line);
        }
        return new Table(title, columns, cells);
    }

    private static Table ratioTable(ThreadSwitchVariant platform, ThreadSwitchVariant virtual, RingScale scale,
                                    Map<String, ThreadSwitchRow> byPoint) {
        return grid(platform.label() + " / " + virtual.label() + ": platform cost as a multiple of virtual (x)", scale,
                (n, b) -> ratio(byPoint.get(key(platform.label(), n, b)).microsPerSwitch()
                        / byPoint.get(key(virtual.label(), n, b)).microsPerSwitch()));
    }

    private static Table keyTable(int threads, int blockBytes, Map<String, ThreadSwitchRow> byPoint) {
        double virtualMicros = byPoint.get(key(ThreadSwitchVariant.VIRTUAL_FUTURE.label(), threads, blockBytes)).microsPerSwitch();
        List<List<String>> cells = new ArrayList<>();
        for (ThreadSwitchVariant v : VARIANTS) {
            double m = byPoint.get(key(v.label(), threads, blockBytes)).microsPerSwitch();
            cells.add(List.of(v.label(), micros(m), ratio(m / virtualMicros),
                    v == ThreadSwitchVariant.PLATFORM_FUTURE && blockBytes == KEY_BLOCK_BYTES ? "about " + ARTICLE_MICROS_AT_16_KB : "-"));
        }
        return new Table(threads + " threads, " + size(blockBytes) + " blocks: measured beside the article",
                List.of("variant", "us per switch", "x virtual-future", "article us"), cells);
    }

    private List<String> notes(RingScale scale, List<ThreadSwitchRow> rows, int keyThreads, int keyBytes,
                               Map<String, ThreadSwitchRow> byPoint) {
        double platform = byPoint.get(key(ThreadSwitchVariant.PLATFORM_FUTURE.label(), keyThreads, keyBytes)).microsPerSwitch();
        double virtual = byPoint.get(key(ThreadSwitchVariant.VIRTUAL_FUTURE.label(), keyThreads, keyBytes)).microsPerSwitch();
        long handoffs = rows.stream().mapToLong(ThreadSwitchRow::handoffs).sum();
        long checked = rows.stream().mapToLong(ThreadSwitchRow::sumsChecked).sum();
        return List.of(
                String.format(Locale.ROOT, "Here, %d threads with %s blocks: platform threads %s us a switch, virtual threads %s us"
                                + " (both with a CompletableFuture per turn, same run): platform costs %s x virtual.",
                        keyThreads, size(keyBytes), micros(platform), micros(virtual), ratio(platform / virtual)),
                "Article (Figure 2): about 12.5 us a switch at 16 KB with a moderate number of threads, on a 4-core AMD with"
                        + " Oracle Java 8 for 64-bit Linux (2014), platform threads and a CompletableFuture per turn.",
                "Why ours differs: other hardware, kernel and JDK, and here " + Runtime.getRuntime().availableProcessors()
                        + " cores shared with other work (load below), where a woken thread can queue behind other processes;"
                        + " the article calls its figures a best case, every core kept at full clock speed, and has no virtual-thread counterpart.",
                "Measured: microseconds per switch = wall time from releasing thread 0 to the end of the last turn, divided by"
                        + " the hand-offs; all threads are created, started and parked before the clock starts; one run a point,"
                        + " after two warm-up runs per variant (1 and 16 threads, 4 KB blocks) that are not reported.",
                "N = 1 is the floor: one thread signalling itself, no switch. Virtual threads run on the default scheduler"
                        + " (parallelism = cores); only one thread of a ring is runnable at a time.",
                "Sums checked: " + checked + " of " + handoffs + " hand-offs summed their thread's block and matched the"
                        + " sum taken at set-up (a mismatch fails the run).",
                String.format(Locale.ROOT, "Load: %d cores, system load average %s when the run ended; with more runnable"
                                + " threads than cores a point can move 2x from run to run, so compare variants within one run.",
                        Runtime.getRuntime().availableProcessors(),
                        loadAverage()),
                "Cross-check: the JMH benchmark HandoffBenchmark (docs/benchmarks.md) times the 2-thread point with its own code.",
                "Scale: " + scale.label() + ". --time-scale does not apply (no delays).");
    }

    private static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f", load);
    }

    private static String key(String variant, int threads, int blockBytes) { return variant + "/" + threads + "/" + blockBytes; }

    static String size(int bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KB" : bytes + " B";
    }

    static String micros(double v) { return String.format(Locale.ROOT, "%.3f", v); }

    static String ratio(double v) { return String.format(Locale.ROOT, v >= 10 ? "%.1f" : "%.2f", v); }

    /** Figure 2: cost per switch against threads, one chart per block size, a line per variant (log-log). */
    static List<dev.blocklab.result.Chart> figure2(List<ThreadSwitchRow> rows) {
        List<dev.blocklab.result.Chart> charts = new ArrayList<>();
        for (int blockBytes : rows.stream().map(ThreadSwitchRow::blockBytes).distinct().sorted().toList()) {
            List<dev.blocklab.result.Series> series = new ArrayList<>();
            for (String variant : rows.stream().map(ThreadSwitchRow::variant).distinct().toList()) {
                List<dev.blocklab.result.Series.Point> points = rows.stream()
                        .filter(r -> r.variant().equals(variant) && r.blockBytes() == blockBytes)
                        .sorted(java.util.Comparator.comparingInt(ThreadSwitchRow::threads))
                        .map(r -> new dev.blocklab.result.Series.Point(r.threads(), r.microsPerSwitch())).toList();
                if (!points.isEmpty()) series.add(new dev.blocklab.result.Series(variant, points));
            }
            charts.add(new dev.blocklab.result.Chart.LineChart("Figure 2: cost per switch against threads, " + size(blockBytes) + " blocks",
                    new dev.blocklab.result.Axis("threads in the ring", "count"), new dev.blocklab.result.Axis("cost per hand-off", "us"),
                    series, true, true, "Wall time of the ring's hand-offs (System.nanoTime, threads started before the clock) divided by the "
                    + "hand-offs; each turn sums the thread's own block of " + size(blockBytes) + " and checks it; one run per point after two warm-ups."));
        }
        return charts;
    }
}
