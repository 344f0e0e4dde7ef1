package dev.blocklab.load;


/**
 * One worker's share of a global open schedule: request {@code k} of the global schedule (0-based, due at
 * {@code pacer.dueNanos(k)}) belongs to shard {@code k mod count}. The shares interleave, so N shards started at
 * one instant send together exactly the global schedule (its rate, ramp and steps), not N bursts; each sends
 * about 1/N of it. {@link #WHOLE} (0 of 1) is the unsharded attack.
 *
 * <p>A pure filter over global request numbers: the send loop walks {@link #first()}, {@link #next(long)}, ... and
 * counts what it owes with {@link #ownedAmong(long)}, so every share is a table test without a clock.
 *
 * @param index 0-based shard number, {@code 0 <= index < count} (Kubernetes' {@code JOB_COMPLETION_INDEX})
 * @param count how many shards split the schedule
 */
public record Shard(int index, int count) {
    /** The whole schedule: one shard. */
    public static final Shard WHOLE = new Shard(0, 1);
    /** More shards than this given to {@code --shard} is a typo, not a deployment. */
    public static final int MAX_COUNT = 10_000;

    public Shard {
        if (count < 1) throw new IllegalArgumentException("--shard: the count must be 1.." + MAX_COUNT + ", got " + count);
        if (index < 0 || index >= count)
            throw new IllegalArgumentException("--shard: the index must be 0.." + (count - 1) + " (0-based) for " + count + " shards, got " + index);
    }

    /** Parses {@code i/N} (0-based {@code i}); errors name {@code --shard}. */
    public static Shard parse(String text) {
        String[] parts = text.trim().split("/", -1);
        try {
            if (parts.length != 2) throw new NumberFormatException();
            int count = Integer.parseInt(parts[1].trim());
            if (count > MAX_COUNT) throw new IllegalArgumentException("--shard: the count must be 1.." + MAX_COUNT + ", got " + count);
            return new Shard(Integer.parseInt(parts[0].trim()), count);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shard: '" + text + "' is not INDEX/COUNT with a 0-based index (e.g. 0/4 .. 3/4)");
        }
    }

    /**
     * Share {@code i} of {@code n} of this shard: its requests {@code k} with {@code (k / count) mod n == i}, itself
     * a shard of the global schedule ({@code index + count * i} of {@code count * n}). The n shares send together
     * exactly this shard's requests (the attack splits its share among its event loops this way).
     */
    public Shard split(int i, int n) {
        if (n < 1 || i < 0 || i >= n) throw new IllegalArgumentException("share " + i + " of " + n);
        return new Shard(Math.toIntExact(index + (long) count * i), Math.toIntExact((long) count * n));
    }

    /** The first global request number of this shard. */
    public long first() { return index; }

    /** The global request number after {@code k} in this shard. */
    public long next(long k) { return k + count; }

    /** Whether global request {@code k} is this shard's. */
    public boolean owns(long k) { return k % count == index; }

    /** How many of the global requests {@code 0 .. globalCount-1} are this shard's. */
    public long ownedAmong(long globalCount) {
        return globalCount <= index ? 0 : (globalCount - index + count - 1) / count;
    }

    /** This shard's requests due strictly before {@code nanos} on {@code pacer}'s global schedule. */
    public long dueBefore(DueTimes pacer, long nanos) { return nanos <= 0 ? 0 : ownedAmong(pacer.dueBy(nanos - 1)); }

    /** {@code i/N}, as given to {@code --shard}. */
    @Override public String toString() { return index + "/" + count; }
}
