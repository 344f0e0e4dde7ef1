package dev.blocklab;

/**
 * Every default the CLI shows and the engine falls back on, in one place (JMH's {@code Defaults} is the model).
 * Settings records and commands read these; none writes the value again. Durations are kept as the text a user
 * types ({@code 30s}), so a picocli {@code defaultValue} can name them; {@code DefaultsTest} checks that each
 * engine constant in nanoseconds is the same duration.
 */
public final class Defaults {
    private Defaults() {}

    /** Seed of every latency and failure draw ({@code --seed}). */
    public static final long SEED = 42;
    /** Delays divided by this: 1 is real time ({@code --time-scale}). */
    public static final long TIME_SCALE = 1;
    /** {@code reproduce --quick}'s divisor of every delay. */
    public static final long QUICK_TIME_SCALE = 10;
    /** Runs made and discarded before measuring ({@code run --warmups}). */
    public static final int WARMUPS = 1;
    /** Measured runs; the median is reported ({@code run --repeats}). */
    public static final int REPEATS = 3;
    /** Spare threads of {@code forkjoin-managed}, as Scala's global execution context ({@code --spare-threads}). */
    public static final int SPARE_THREADS = 256;

    /** The address servers bind: loopback only. */
    public static final String HOST = "127.0.0.1";
    /** {@code blocklab serve}'s port. */
    public static final int SERVE_PORT = 9000;
    /** {@code blocklab backend}'s port. */
    public static final int BACKEND_PORT = 9100;
    /** Requests that may wait for a handler thread in {@code serve} ({@code --queue}). */
    public static final int SERVE_QUEUE = 10_000;

    /** Connections of the PostgreSQL pool ({@code --db-pool}). */
    public static final int DB_POOL = 10;
    /** Connections of the Jedis pool ({@code --redis-pool}). */
    public static final int REDIS_POOL = 8;
    /** Longest wait for a pooled connection ({@code --pool-timeout}). */
    public static final String POOL_TIMEOUT = "5s";

    /** Blockings shorter than this are not recorded by the auditor ({@code --audit-threshold}). */
    public static final String AUDIT_THRESHOLD = "10ms";
    /** An event loop or carrier without progress this long is a stall ({@code --audit-stall}). */
    public static final String AUDIT_STALL = "200ms";

    /** {@code attack}'s rate without {@code --rate} or {@code --users}. */
    public static final String ATTACK_RATE = "50/s";
    /** {@code attack --duration}. */
    public static final String ATTACK_DURATION = "10s";
    /** {@code attack --timeout}: a request without a complete response this long after its send fails. */
    public static final String ATTACK_TIMEOUT = "30s";
    /** {@code attack --late-threshold}: a send further behind schedule counts as late. */
    public static final String ATTACK_LATE_THRESHOLD = "1ms";
    /** {@code attack --max-connections}: open connections per host. */
    public static final int ATTACK_MAX_CONNECTIONS = 10_000;
}
