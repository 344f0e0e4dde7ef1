package dev.blocklab.shard;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.blocklab.attack.AttackExperiment;
import dev.blocklab.result.AttackInterval;
import dev.blocklab.result.AttackResult;
import dev.blocklab.attack.AttackTimeline;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.report.Jsons;
import dev.blocklab.result.Environment;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.LatencyMillis;
import dev.blocklab.result.Table;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The exact merge of shards: histograms added (HdrHistogram {@code add} of equal layouts is exact, so every
 * percentile is the one a single histogram of all samples gives), counters summed, the worst lateness kept, and
 * durations taken from the first send to the last send and the last response over all shards, as one recorder
 * would. Shards of one attack must agree on targets, schedule, start, interval, late threshold and count; a
 * disagreement is refused with one line naming both files. A shard with no record (a worker that failed or never
 * wrote) or absent altogether is named in the result's notes and its shards table, never dropped silently.
 *
 * <p>The instrument verdict of a merge is not a merge of samples: each worker judged itself; the merged verdict
 * takes the worst worker's own delays and event-loop lag against the merged latency, and each worker's verdict is in
 * the shards table.
 *
 * @param result    the merged attack
 * @param intervals the merged timeline (scheduled counts from the global schedule)
 * @param records   the shards merged, by shard index
 * @param problems  one sentence per missing or failed shard (empty when all N are in)
 */
public record ShardMerge(AttackResult result, List<AttackInterval> intervals, long intervalNanos,
                         List<Source> records, List<String> problems) {
    /** Distinct error texts kept, as one recorder keeps. */
    static final int MAX_DISTINCT_ERRORS = 100;

    public ShardMerge {
        intervals = List.copyOf(intervals);
        records = List.copyOf(records);
        problems = List.copyOf(problems);
    }

    /** One shard's record and where it came from (a file name, or a worker). */
    public record Source(String from, ShardRecord record) {}

    /** A file that held no shard record, with why. */
    public record Failed(String from, String reason) {}

    /** What {@link #read} found in a set of files. */
    public record Found(List<Source> sources, List<Failed> failed) {}

    private static final ObjectMapper READER = Jsons.mapper().copy().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * The shard records in {@code files}: each JSON line of kind {@value ShardRecord#KIND} (a {@code --save} file,
     * or pods' logs with other lines between) and each {@value ShardRecord#HLOG_PREFIX} comment (an {@code --hlog}).
     * A file without any is a failed shard, as is one whose record was cut short (the file ends in the middle of
     * its line: the worker was stopped while writing it); an unreadable file is an error naming it; a directory
     * stands for its {@code *.jsonl} files.
     */
    public static Found read(List<Path> paths) {
        List<Source> sources = new ArrayList<>();
        List<Failed> failed = new ArrayList<>();
        List<Path> files = expand(paths);
        List<String> labels = dev.blocklab.Names.fileLabels(files);   // two shards.log of two directories told apart
        for (int f = 0; f < files.size(); f++) {
            Path file = files.get(f);
            String label = labels.get(f);
            dev.blocklab.TextFiles.Lines text = dev.blocklab.TextFiles.linesOf(file, "--merge: cannot read " + file);
            List<String> lines = text.lines();
            int before = sources.size();
            boolean cut = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).trim();
                String json = line.startsWith(ShardRecord.HLOG_PREFIX) ? line.substring(ShardRecord.HLOG_PREFIX.length())
                        : line.startsWith("{") && line.contains("\"" + ShardRecord.KIND + "\"") ? line : null;
                if (json == null) continue;
                try {
                    JsonNode node = READER.readTree(json);
                    if (!(node instanceof ObjectNode o) || !ShardRecord.KIND.equals(o.path("kind").asText())) continue;
                    o.remove("kind");
                    sources.add(new Source(label + (lines.size() > 1 && countShardLines(lines) > 1 ? " line " + (i + 1) : ""),
                            READER.treeToValue(o, ShardRecord.class)));
                } catch (IOException | RuntimeException e) {
                    if (text.isCut(i)) {   // the worker was stopped while writing its record: a failed shard, not a bad file
                        cut = true;
                        continue;
                    }
                    throw new IllegalArgumentException("--merge: " + file + " line " + (i + 1) + ": not a shard record ("
                            + dev.blocklab.TextFiles.readProblem(e) + ")");
                }
            }
            if (sources.size() == before)
                failed.add(new Failed(label, cut
                        ? "holds its shard record cut short (the file ends in the middle of line " + lines.size() + ": the worker was stopped while writing it)"
                        : lines.stream().anyMatch(l -> l.startsWith("{\"kind\":\"attack-interval\""))   // an attack's final timeline
                        ? "is an attack saved on its own (no --shard or --workers), not a shard of one"
                        : "holds no shard record (the worker failed or was stopped before its end)"));
        }
        return new Found(sources, failed);
    }

    /** The files given, a directory standing for its {@code *.jsonl} files in name order. */
    private static List<Path> expand(List<Path> paths) {
        List<Path> files = new ArrayList<>();
        for (Path p : paths) {
            if (!Files.isDirectory(p)) {
                files.add(p);
                continue;
            }
            int before = files.size();
            try (var list = Files.list(p)) {
                list.filter(f -> f.getFileName().toString().endsWith(".jsonl")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new IllegalArgumentException("--merge: cannot list " + p + ": " + dev.blocklab.TextFiles.reason(e));
            }
            if (files.size() == before)
                throw new IllegalArgumentException("--merge: " + p + " holds no .jsonl file (expected the directory of an "
                        + "'attack --workers N' run, or shard files written by 'attack --shard i/N --save FILE')");
        }
        return files;
    }

    private static long countShardLines(List<String> lines) {
        return lines.stream().filter(l -> l.contains("\"" + ShardRecord.KIND + "\"")).count();
    }

    /** Merges what {@link #read} found; see the class comment. */
    public static ShardMerge of(Found found) {
        List<Source> sources = new ArrayList<>(found.sources());
        if (sources.isEmpty())
            throw new IllegalArgumentException("--merge: no shard records in " + found.failed().stream().map(Failed::from).toList()
                    + " (expected files written by 'blocklab attack --shard i/N --save FILE' or '--hlog FILE')");
        Source first = sources.getFirst();
        for (Source s : sources) agree(first, s);
        sources.sort(Comparator.comparingInt(s -> s.record().parsedShard().index()));
        int count = first.record().parsedShard().count();
        List<String> problems = new ArrayList<>();
        boolean[] present = new boolean[count];
        for (int i = 0; i < sources.size(); i++) {
            int index = sources.get(i).record().parsedShard().index();
            if (present[index])
                throw new IllegalArgumentException("--merge: shard " + index + "/" + count + " appears twice (" + sources.get(i - 1).from()
                        + " and " + sources.get(i).from() + ")");
            present[index] = true;
        }
        for (Failed f : found.failed()) problems.add("failed shard: " + f.from() + " " + f.reason());
        for (int i = 0; i < count; i++)
            if (!present[i]) problems.add("shard " + i + "/" + count + " is missing: its requests are not in these figures");
        return new ShardMerge(mergeResults(sources), mergeTimeline(sources), first.record().intervalNanos(), sources, problems);
    }

    /** Refuses two shards of different attacks, naming the first field they differ on. */
    private static void agree(Source a, Source b) {
        check(a, b, "shard count", r -> r.parsedShard().count());
        check(a, b, "targets", ShardRecord::targets);
        check(a, b, "schedule", ShardRecord::schedule);
        check(a, b, "pacer", ShardRecord::pacer);
        check(a, b, "start", ShardRecord::startAt);
        check(a, b, "interval", ShardRecord::intervalNanos);
        check(a, b, "late threshold", ShardRecord::lateThresholdNanos);
        check(a, b, "description", ShardRecord::description);
    }

    private static void check(Source a, Source b, String what, Function<ShardRecord, Object> field) {
        Object x = field.apply(a.record()), y = field.apply(b.record());
        if (!Objects.equals(x, y))
            throw new IllegalArgumentException("--merge: " + b.from() + " is not a shard of the same attack as " + a.from()
                    + ": its " + what + " is '" + y + "', not '" + x + "'");
    }

    private static AttackTimeline mergeTimelineOf(List<Source> sources) {
        ShardRecord first = sources.getFirst().record();
        AttackTimeline t = new AttackTimeline(first.globalSchedule(), first.intervalNanos());
        for (Source s : sources) s.record().addTo(t);
        return t;
    }

    private static List<AttackInterval> mergeTimeline(List<Source> sources) {
        boolean stopped = sources.stream().anyMatch(s -> s.record().stopped());
        return mergeTimelineOf(sources).intervals(stopped ? 0 : Long.MAX_VALUE);
    }

    private static AttackResult mergeResults(List<Source> sources) {
        ShardRecord first = sources.getFirst().record();
        Histogram latency = null, service = null;
        long requests = 0, unsent = 0, ok = 0, in = 0, out = 0, late = 0, maxLate = 0, cutOff = 0, retried = 0;
        Long firstSend = null, lastSend = null, lastEnd = null;
        boolean stopped = false;
        TreeMap<Integer, Long> codes = new TreeMap<>();
        TreeMap<String, Long> errors = new TreeMap<>();
        for (Source s : sources) {
            ShardRecord r = s.record();
            Histogram l = Histograms.decode(r.latencyHistogram()), sv = Histograms.decode(r.serviceHistogram());
            if (latency == null) { latency = l; service = sv; } else { latency.add(l); service.add(sv); }
            requests += r.requests();
            unsent += r.unsent();
            ok += r.successes();
            in += r.bytesIn();
            out += r.bytesOut();
            late += r.lateSends();
            maxLate = Math.max(maxLate, r.maxLateNanos());
            cutOff += r.cutOff();
            retried += r.retried();
            stopped |= r.stopped();
            firstSend = min(firstSend, r.firstSendNanos());
            lastSend = max(lastSend, r.lastSendNanos());
            lastEnd = max(lastEnd, r.lastEndNanos());
            r.statusCodes().forEach((k, v) -> codes.merge(k, v, Long::sum));
            r.errors().forEach((k, v) -> {
                String key = errors.containsKey(k) || errors.size() < MAX_DISTINCT_ERRORS ? k : "(more distinct errors than " + MAX_DISTINCT_ERRORS + ")";
                errors.merge(key, v, Long::sum);
            });
        }
        long attack = requests == 0 || firstSend == null ? 0 : lastSend - firstSend;
        long wait = requests == 0 || lastEnd == null ? 0 : Math.max(0, lastEnd - lastSend);
        long total = attack + wait;
        LatencyMillis latencyMillis = LatencyMillis.of(latency);
        return new AttackResult(first.description(), requests, unsent, attack > 0 ? requests / (attack / 1e9) : 0,
                total > 0 ? ok / (total / 1e9) : 0, total, attack, wait, latencyMillis, LatencyMillis.of(service), in, out, ok,
                requests == 0 ? 0 : (double) ok / requests, codes, errors, late, first.lateThresholdNanos(), maxLate, stopped,
                cutOff, latency, service, health(sources, requests + unsent, unsent, ok, latencyMillis), retried);
    }

    /** A shard's own delays over this many requests have a p99 that is not their one slowest send. */
    static final long SHARD_P99_REQUESTS = 100;

    /**
     * The merged verdict: the worst worker's own delays and loop lag against the merged latency. The worst is
     * chosen among the shards that measured {@value #SHARD_P99_REQUESTS} requests or more, where any did: a shard of
     * a few requests has its slowest send (a cold first one) for its p99.
     */
    private static InstrumentHealth health(List<Source> sources, long scheduled, long unsent, long successes, LatencyMillis latency) {
        List<InstrumentHealth> judged = sources.stream().map(s -> s.record().health())
                .filter(h -> h.delays().ownMillis().count() >= SHARD_P99_REQUESTS).toList();
        InstrumentHealth worst = (judged.isEmpty() ? sources.stream().map(s -> s.record().health()).toList() : judged).stream()
                .max(Comparator.comparingDouble(h -> h.delays().ownMillis().p99() + nanToZero(h.eventLoopLagP99Millis()))).orElseThrow();
        double cpu = 0, busy = Double.NaN, machine = Double.NaN;
        int cores = 0;
        for (Source s : sources) {
            InstrumentHealth h = s.record().health();
            cpu += nanToZero(h.attackerCpuCores());
            busy = maxNan(busy, h.eventLoopBusyShare());
            machine = maxNan(machine, h.machineBusyShare());
            cores = Math.max(cores, h.cores());
        }
        // judged once the shards together measured enough requests: 2 workers of 300 each are an attack of 600
        long measured = sources.stream().mapToLong(s -> s.record().health().delays().ownMillis().count()).sum();
        return InstrumentHealth.assess(scheduled, unsent, successes, latency, worst.delays(), new InstrumentHealth.Measured(
                worst.eventLoopLagP99Millis(), worst.eventLoopLagMaxMillis(), cpu, busy, machine, worst.lagWaitingShare(),
                worst.lagRunningShare(), cores), sources.size() > 1 ? " in all shards, of " + (scheduled - unsent) + " sent" : "", measured);
    }

    /** {@code INCOMPLETE: shard 1/2 is missing; ...} when a shard is missing or failed: its share was never measured. */
    public java.util.Optional<String> incomplete() {
        return problems.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of("INCOMPLETE: " + String.join("; ", problems));
    }

    /** The merge as an experiment result (every report format), with a table of the shards and the problems first. */
    public ExperimentResult experiment(Environment environment) {
        ExperimentResult e = AttackExperiment.of(result, intervals, intervalNanos, environment);
        List<String> notes = new ArrayList<>();
        incomplete().ifPresent(line -> notes.add(line + "."));
        notes.add("Merged from " + records.size() + " shard" + (records.size() == 1 ? "" : "s") + " of " + shardCount()
                + ": histograms added and counters summed, exactly as one process recording every sample; the instrument "
                + "verdict is the worst shard's own delay against the merged latency, judged once the shards together measured "
                + dev.blocklab.result.InstrumentHealth.MIN_JUDGED_REQUESTS + " requests.");
        notes.addAll(e.notes());
        List<Table> tables = new ArrayList<>(e.tables());
        tables.add(shardsTable());
        // an incomplete merge says so first, in its title: its figures are a part of the attack
        return new ExperimentResult(e.experiment(), (problems.isEmpty() ? "" : "INCOMPLETE, ") + e.description()
                + " (" + records.size() + " of " + shardCount() + " shards merged)",
                e.scale(), e.environment(), e.rows(), tables, notes, e.charts());
    }

    /** How many shards the attack was split into. */
    public int shardCount() { return records.getFirst().record().parsedShard().count(); }

    /** One row per shard: what each sent, how late, its own p99, its verdict; missing and failed shards too. */
    public Table shardsTable() {
        List<List<String>> rows = new ArrayList<>();
        for (Source s : records) {
            ShardRecord r = s.record();
            LatencyMillis l = LatencyMillis.of(Histograms.decode(r.latencyHistogram()));
            rows.add(List.of(r.shard(), s.from(), Long.toString(r.requests()), Long.toString(r.unsent()), Long.toString(r.lateSends()),
                    String.format(Locale.ROOT, "%.3f", r.maxLateNanos() / 1e6), String.format(Locale.ROOT, "%.3f", l.p99()),
                    r.health().instrumentLimited() ? "instrument-limited" : r.health().judged() ? "ok" : "not judged"));
        }
        for (String p : problems) rows.add(List.of("-", p, "-", "-", "-", "-", "-", "missing"));
        return new Table("Shards", List.of("shard", "from", "requests", "unsent", "late sends", "max late (ms)", "p99 (ms)", "instrument"), rows);
    }

    private static Long min(Long a, Long b) {
        if (a == null) return b;
        return b == null ? a : Long.valueOf(Math.min(a, b));
    }

    private static Long max(Long a, Long b) {
        if (a == null) return b;
        return b == null ? a : Long.valueOf(Math.max(a, b));
    }

    private static double nanToZero(double v) { return Double.isNaN(v) ? 0 : v; }

    private static double maxNan(double a, double b) { return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.max(a, b); }
}
