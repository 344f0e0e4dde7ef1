package dev.blocklab.load;

/**
 * When each request of an open schedule is due, as a pure function: what {@link SendLoop} needs. Every
 * {@link Pacer} is one; a view such as {@link #scaledDown} (or a filter that keeps one shard's requests) wraps
 * one without a clock. The two methods must agree: request {@code k} is due at or before {@code t} exactly when
 * {@code dueNanos(k) <= t}, so {@code dueBy(t)} counts the {@code k} with {@code dueNanos(k) <= t}.
 */
public interface DueTimes {

    /** Nanoseconds after the start at which request {@code index} (0-based) is due; never decreasing in index. */
    long dueNanos(long index);

    /** How many requests are due at or before {@code elapsedNanos}. */
    long dueBy(long elapsedNanos);

    /**
     * This schedule with every due time divided by {@code divisor} (rounded down), as a run at a time scale sees
     * it: {@code 1000/s} at {@code /100} is sent as {@code 100000/s}. {@code divisor} 1 returns this.
     */
    default DueTimes scaledDown(long divisor) {
        if (divisor < 1) throw new IllegalArgumentException("time scale must be >= 1, got " + divisor);
        if (divisor == 1) return this;
        DueTimes real = this;
        return new DueTimes() {
            @Override public long dueNanos(long index) { return real.dueNanos(index) / divisor; }
            // dueNanos(k) / d <= t  exactly when  dueNanos(k) <= t * d + d - 1
            @Override public long dueBy(long elapsedNanos) {
                if (elapsedNanos < 0) return 0;
                return real.dueBy(elapsedNanos >= Long.MAX_VALUE / divisor - 1 ? Long.MAX_VALUE : (elapsedNanos + 1) * divisor - 1);
            }
        };
    }
}
