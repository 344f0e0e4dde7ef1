package dev.blocklab.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Aggregates classified blockings into {@link Finding}s: one per subject, rule, thread kind and culprit line. */
public final class Findings {
    /** Frames kept in {@link Finding#topFrames()}. */
    public static final int TOP_FRAMES = 5;

    private Findings() {}

    /** A blocking attributed to its subject (the run in progress when it began). */
    public record Attributed(String subject, Blocking blocking) {}

    /**
     * Classifies and aggregates; blockings that break no rule are dropped. Deterministic: findings sorted by
     * subject, rule and culprit; the frames shown are those of the longest blocking.
     */
    public static List<Finding> of(List<Attributed> blockings) {
        record Key(String subject, Rule rule, ThreadKind kind, Frame culprit) {}
        final class Sum {
            final TreeSet<String> events = new TreeSet<>();
            long count, total, worst = -1;
            List<Frame> frames = List.of();
        }
        Map<Key, Sum> sums = new LinkedHashMap<>();
        for (Attributed a : blockings) {
            Blocking b = a.blocking();
            Rule rule = Classifier.rule(b).orElse(null);
            if (rule == null) continue;
            Frame culprit = Classifier.culprit(b.stack()).orElse(new Frame("(no stack)", "?", -1));
            Sum s = sums.computeIfAbsent(new Key(a.subject(), rule, Classifier.kind(b), culprit), k -> new Sum());
            s.events.add(b.event());
            s.count++;
            s.total += b.durationNanos();
            if (b.durationNanos() > s.worst) {
                s.worst = b.durationNanos();
                s.frames = Classifier.topFrames(b.stack(), TOP_FRAMES);
            }
        }
        List<Finding> out = new ArrayList<>();
        sums.forEach((k, s) -> out.add(new Finding(k.subject(), k.rule(), k.kind(), List.copyOf(s.events), s.count,
                s.total, s.worst, k.culprit(), s.frames, ByDesign.reason(k.subject(), k.rule(), s.frames).orElse(null))));
        out.sort(Comparator.comparing(Finding::subject).thenComparing(Finding::rule)
                .thenComparing(f -> f.culprit().toString()));
        return List.copyOf(out);
    }

    /** Findings that count as misuse (not by design). */
    public static long misuse(List<Finding> findings) {
        return findings.stream().filter(Finding::misuse).count();
    }
}
