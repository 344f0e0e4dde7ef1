package dev.blocklab.result;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * The wall-time range of a group of repeated runs, of which a result reports one (the run of median wall time).
 *
 * @param count         how many measured runs the group holds (warm-ups not counted); {@code repeats} in JSON
 * @param wallMillisMin the shortest wall time among them
 * @param wallMillisMax the longest wall time among them
 */
public record Repeats(@JsonProperty("repeats") int count, double wallMillisMin, double wallMillisMax) {
    public Repeats {
        if (count < 1) throw new IllegalArgumentException("a group of repeats holds at least 1 run, got " + count);
        if (!(wallMillisMin <= wallMillisMax))
            throw new IllegalArgumentException("the shortest wall time " + wallMillisMin + " ms exceeds the longest " + wallMillisMax + " ms");
    }

    /** One run of {@code wallMillis}. */
    public static Repeats once(double wallMillis) { return new Repeats(1, wallMillis, wallMillis); }

    /** The range of these wall times, in milliseconds; at least one. */
    public static Repeats of(List<Double> wallMillis) {
        if (wallMillis.isEmpty()) throw new IllegalArgumentException("a group of repeats holds at least 1 run, got none");
        Repeats all = once(wallMillis.getFirst());
        for (double w : wallMillis.subList(1, wallMillis.size())) all = all.plus(once(w));
        return all;
    }

    /** Both groups as one: the counts added, the range spanning both. */
    public Repeats plus(Repeats other) {
        return new Repeats(count + other.count, Math.min(wallMillisMin, other.wallMillisMin), Math.max(wallMillisMax, other.wallMillisMax));
    }
}
