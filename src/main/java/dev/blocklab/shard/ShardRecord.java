package dev.blocklab.shard;

import dev.blocklab.attack.Attack;
import dev.blocklab.result.AttackResult;
import dev.blocklab.attack.AttackSettings;
import dev.blocklab.attack.AttackTimeline;
import dev.blocklab.result.InstrumentHealth;
import dev.blocklab.workload.Arrival;
import dev.blocklab.load.Shard;
import dev.blocklab.attack.Target;
import dev.blocklab.load.Pacer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Everything one shard measured, whole: the attack's counters, its latency and service-time HdrHistograms and its
 * per-interval counts and histograms (encoded, exact), on the common start's time base; plus what every shard of
 * one attack must agree on (targets, schedule, start, interval, late threshold, shard count). Saved as a JSON
 * line of kind {@value #KIND} (in {@code --save}, on standard output, or as a {@value #HLOG_PREFIX} comment at the
 * end of {@code --hlog}); {@link ShardMerge} adds records into one result.
 *
 * @param shard              {@code i/N}
 * @param startAt            the common start of the measured schedule, an ISO-8601 instant
 * @param description        the attack's description without the shard
 * @param targets            {@code METHOD URL} of each target, in round-robin order
 * @param schedule           the global schedule's label, e.g. {@code 1000/s for 10s}
 * @param pacer              the global schedule's pacer, to rebuild the scheduled counts
 * @param durationNanos      the schedule's duration
 * @param intervalNanos      the timeline's interval
 * @param lateThresholdNanos what counts as a late send
 * @param firstSendNanos     first send after the start, null when none
 * @param lastSendNanos      last send after the start, null when none
 * @param lastEndNanos       last response (not a cut-off) after the start, null when none
 * @param latencyHistogram   the latency HdrHistogram (nanoseconds from the intended send), encoded
 * @param serviceHistogram   the service-time HdrHistogram, encoded
 * @param intervals          the timeline's intervals that hold a send or a completion
 * @param retried            requests sent again after a connection kept for reuse closed unanswered (0 in records
 *                           written before it was counted)
 */
public record ShardRecord(String shard, String startAt, String description, List<String> targets, String schedule,
                          PacerSpec pacer, long durationNanos, long intervalNanos, long lateThresholdNanos,
                          long requests, long unsent, long successes, long bytesIn, long bytesOut,
                          SortedMap<Integer, Long> statusCodes, SortedMap<String, Long> errors, long lateSends,
                          long maxLateNanos, boolean stopped, long cutOff, Long firstSendNanos, Long lastSendNanos,
                          Long lastEndNanos, String latencyHistogram, String serviceHistogram, InstrumentHealth health,
                          List<Interval> intervals, long retried) {
    /** The {@code kind} of a shard's JSON line. */
    public static final String KIND = dev.blocklab.report.ResultsFile.SHARD_RECORD;
    /** The comment prefix of a shard's record at the end of its HdrHistogram log. */
    public static final String HLOG_PREFIX = "#blocklab-shard ";

    public ShardRecord {
        targets = List.copyOf(targets);
        statusCodes = new TreeMap<>(statusCodes);
        errors = new TreeMap<>(errors);
        intervals = List.copyOf(intervals);
    }

    /** One timeline interval {@code k} ({@code [k·I, (k+1)·I)} after the start), its latency histogram encoded. */
    public record Interval(long k, long sent, long completed, long errors, String latencyHistogram) {}

    /** A pacer as data: {@code constant} (one rate), {@code ramp} (two rates over {@code nanos}) or {@code steps}. */
    public record PacerSpec(String kind, List<Double> ratesPerSecond, long nanos) {
        static PacerSpec of(Pacer p) {
            return switch (p) {
                case Pacer.Constant c -> new PacerSpec("constant", List.of(c.ratePerSecond()), 0);
                case Pacer.LinearRamp r -> new PacerSpec("ramp", List.of(r.startPerSecond(), r.endPerSecond()), r.durationNanos());
                case Pacer.Steps s -> new PacerSpec("steps", s.ratesPerSecond(), s.stepNanos());
            };
        }

        Pacer pacer() {
            return switch (kind) {
                case "constant" -> new Pacer.Constant(ratesPerSecond.getFirst());
                case "ramp" -> new Pacer.LinearRamp(ratesPerSecond.get(0), ratesPerSecond.get(1), nanos);
                case "steps" -> new Pacer.Steps(ratesPerSecond, nanos);
                default -> throw new IllegalArgumentException("unknown pacer kind '" + kind + "'");
            };
        }
    }

    /** The record of shard {@code shard} of an attack on {@code settings} started at {@code startAt}. */
    public static ShardRecord of(Shard shard, Instant startAt, AttackSettings settings, AttackResult r, ShardCapture capture) {
        if (!(settings.schedule() instanceof Arrival.Open open))
            throw new IllegalArgumentException("--shard splits an open schedule (--rate), not --users");
        List<Interval> intervals = new ArrayList<>();
        capture.timeline().counts().forEach((k, c) -> intervals.add(
                new Interval(k, c.sent(), c.completed(), c.errors(), Histograms.encode(c.latencyNanos()))));
        String description = r.description();
        int cut = description.lastIndexOf(Attack.SHARD_SUFFIX);
        if (cut >= 0) description = description.substring(0, cut);
        return new ShardRecord(shard.toString(), startAt.toString(), description,
                settings.targets().stream().map(Target::label).toList(), open.label(), PacerSpec.of(open.pacer()),
                open.durationNanos(), settings.intervalNanos(), settings.lateThresholdNanos(), r.requests(), r.unsent(),
                r.successes(), r.bytesIn(), r.bytesOut(), r.statusCodes(), r.errors(), r.lateSends(), r.maxLateNanos(),
                r.stopped(), r.cutOff(), capture.firstSendNanos(), capture.lastSendNanos(), capture.lastEndNanos(),
                Histograms.encode(r.latencyHistogramNanos()), Histograms.encode(r.serviceHistogramNanos()), r.health(),
                intervals, r.retried());
    }

    /** This record as one JSON line of kind {@value #KIND}, without a line break. */
    public String toJsonLine() {
        var mapper = dev.blocklab.report.Jsons.mapper();
        var node = mapper.createObjectNode().put("kind", KIND);
        node.setAll((com.fasterxml.jackson.databind.node.ObjectNode) mapper.valueToTree(this));
        try {
            return mapper.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write a shard record: " + e.getMessage(), e);
        }
    }

    /** Appends this record as a {@value #HLOG_PREFIX} comment to the HdrHistogram log {@code hlog} (readers skip comments). */
    public void appendTo(java.nio.file.Path hlog) {
        try {
            java.nio.file.Files.writeString(hlog, HLOG_PREFIX + toJsonLine() + "\n", java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot append the shard record to " + hlog + ": " + dev.blocklab.TextFiles.reason(e), e);
        }
    }

    /** The shard this record is of. */
    public Shard parsedShard() { return Shard.parse(shard); }

    /** The global schedule every shard shares. */
    public Arrival.Open globalSchedule() { return new Arrival.Open(pacer.pacer(), durationNanos); }

    /** A timeline holding this record's intervals (to be merged with others'). */
    void addTo(AttackTimeline timeline) {
        for (Interval i : intervals)
            timeline.add(i.k(), new AttackTimeline.IntervalCounts(i.sent(), i.completed(), i.errors(), Histograms.decode(i.latencyHistogram())));
    }
}
