package dev.blocklab.experiment;

import dev.blocklab.datastore.DatastoreSettings;
import dev.blocklab.datastore.Datastores;
import dev.blocklab.datastore.EmbeddedRedis;
import dev.blocklab.datastore.PoolBoundModel;
import dev.blocklab.datastore.PoolPrediction;
import dev.blocklab.driver.InProcessDriver;
import dev.blocklab.driver.RunSettings;
import dev.blocklab.model.Models;
import dev.blocklab.result.ExperimentResult;
import dev.blocklab.result.PoolStats;
import dev.blocklab.result.RunResult;
import dev.blocklab.result.Table;
import dev.blocklab.workload.Arrival;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Operation;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import dev.blocklab.workload.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The pool is the limit (issue 13): queries of 100 ms ({@code select pg_sleep(0.1)}) on a real PostgreSQL at an
 * open rate above what a pool of 10 connections serves, under a fixed pool of platform threads, virtual threads
 * and a non-blocking model on each of the two non-blocking clients (Vert.x, then R2DBC); then pools of 10, 50 and 90
 * (Vert.x). Then Redis: many small commands per request, a
 * Jedis pool under platform and virtual threads against one multiplexed Lettuce connection, and the pitfall of a
 * blocking command (BLPOP) on that shared connection. Servers are started by the experiment (embedded PostgreSQL,
 * redis-server from the PATH) and stopped at its end. SQL and Redis run in real time: the time scale does not apply.
 */
final class DatabaseExperiment implements Experiment {
    static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    static final List<String> MODELS = List.of("fixed:10", "fixed:100", "virtual", "cf-nonblocking:2");
    static final List<Integer> POOLS = List.of(10, 50, 90);

    /** One measured row. */
    record DatabaseRow(String part, String model, String client, int poolSize, double offeredPerSecond,
                       double predictedPerSecond, double measuredPerSecond, double predictedInUse, int peakInUse,
                       double poolWaitMeanMillis, double poolWaitP99Millis, long requests, long successes,
                       long failures, java.util.Map<String, Long> failureCauses, double p50Millis, double p99Millis,
                       double wallMillis, int peakPlatformThreads, int commandsPerRequest) {}

    @Override public String name() { return "database"; }

    @Override public boolean usesTimeScale() { return false; }

    @Override public String description() {
        return "the pool is the limit: 100 ms queries on a real PostgreSQL above a pool's capacity under platform threads, "
                + "virtual threads and the Vert.x and R2DBC clients, pools of 10/50/90; Redis: Jedis pool against one Lettuce connection";
    }

    @Override public ExperimentResult run(ExperimentSettings settings) {
        boolean full = settings.full();
        double rate = full ? 600 : 300;
        long durationNanos = TimeUnit.SECONDS.toNanos(full ? 10 : 3);
        long poolTimeoutNanos = TimeUnit.SECONDS.toNanos(full ? 2 : 1);
        boolean redis = EmbeddedRedis.available();
        List<String> notes = new ArrayList<>();
        DatastoreSettings base = new DatastoreSettings(true, null, redis, null, POOLS.getLast(), 8, poolTimeoutNanos);
        List<DatabaseRow> rows = new ArrayList<>();
        try (Datastores servers = Datastores.open(base, line -> { notes.add(line); settings.progress().update(line); })) {
            Workload query = queryWorkload(rate, durationNanos);
            for (String model : MODELS)
                rows.add(measure(settings, servers, "pool 10, three models", query, model, base.withDbPool(10), 1, rate));
            // the same non-blocking model on the other non-blocking client: r2dbc-postgresql behind r2dbc-pool
            rows.add(measure(settings, servers, "pool 10, three models", query, MODELS.getLast(),
                    base.withDbPool(10).withPgAsyncClient(DatastoreSettings.PgAsyncClient.R2DBC), 1, rate));
            for (int pool : POOLS.subList(1, POOLS.size()))
                for (String model : MODELS.subList(2, MODELS.size()))
                    rows.add(measure(settings, servers, "pools 50 and 90", query, model, base.withDbPool(pool), 1, rate));
            if (redis) {
                int commands = 20;
                double redisRate = full ? 1000 : 500;
                Workload gets = redisWorkload(commands, redisRate, durationNanos);
                for (String model : List.of("fixed:16", "virtual", "cf-nonblocking:2"))
                    rows.add(measure(settings, servers, "redis: 20 GETs per request", gets, model, base, commands, redisRate));
                Workload blpop = blpopWorkload();
                for (String model : List.of("fixed:8", "cf-nonblocking:2"))
                    rows.add(measure(settings, servers, "redis: BLPOP 50 ms, batch 40", blpop, model, base, 2, 0));
            } else {
                notes.add("Redis part skipped: redis-server is not on the PATH (apt-get install redis-server)");
            }
        }
        notes.addAll(lessons(rows, rate, poolTimeoutNanos));
        return new ExperimentResult(name(), description(), settings.scaleLabel() + "; SQL and Redis in real time",
                settings.environment(), rows, tables(rows), notes, List.of());
    }

    private static DatabaseRow measure(ExperimentSettings settings, Datastores servers, String part, Workload workload,
                                       String model, DatastoreSettings pools, int commands, double offered) {
        InProcessDriver driver = new InProcessDriver(() -> servers.newBackend(pools));
        PoolPrediction pool = PoolPrediction.forSql(workload.graph(), pools.dbPoolSize());
        RunSettings rs = RunSettings.DEFAULTS.withRuns(settings.full() ? 1 : 0, 1);
        String label = model + ", " + part;
        RunResult r = driver.run(workload, model, c -> new PoolBoundModel(Models.create(model, c), pool), rs,
                line -> settings.progress().update(label + ": " + line));
        List<PoolStats> stats = r.pools();
        PoolStats s = stats.isEmpty() ? new PoolStats("-", 0, 0, 0, 0, 0, 0, 0, 0) : stats.getFirst();
        boolean sql = pool.holdNanos() > 0;
        DatabaseRow row = new DatabaseRow(part, model, s.client(), s.poolSize(), offered,
                sql ? pool.throughputPerSecond(offered) : Double.NaN, r.counts().successes() / (r.timing().wallMillis() / 1e3),
                sql ? pool.connectionsInUse(offered) : Double.NaN, s.peakInUse(), s.meanWaitMillis(), s.p99WaitMillis(),
                r.counts().requests(), r.counts().successes(), r.counts().failures() + r.counts().timeouts(), r.counts().failureCauses(), r.timing().latencyMillis().p50(),
                r.timing().latencyMillis().p99(), r.timing().wallMillis(), r.resources().peakPlatformThreads(), commands);
        settings.rowSink().accept(row);
        return row;
    }

    static Workload queryWorkload(double rate, long durationNanos) {
        Step.Call q = new Step.Call("query", List.of(), new Latency.Fixed(HOLD_NANOS), new Value.Constant(0L), 0, null, 0,
                new Operation.Sql("select pg_sleep(0.1)"));
        return new Workload("slow-query", "select pg_sleep(0.1) per request", new Graph(0L, List.of(q)),
                new Arrival.Open(rate, durationNanos));
    }

    static Workload redisWorkload(int commands, double rate, long durationNanos) {
        Step.Call gets = new Step.Call("gets", List.of(), new Latency.Fixed(0), new Value.Constant(0L), 0, null, 0,
                Operation.Redis.parse("GET account:{row}", commands));
        return new Workload("redis-gets", commands + " GETs per request", new Graph(0L, List.of(gets)), new Arrival.Open(rate, durationNanos));
    }

    static Workload blpopWorkload() {
        Step.Call wait = new Step.Call("wait", List.of(), new Latency.Fixed(TimeUnit.MILLISECONDS.toNanos(50)), new Value.Constant(0L), 0, null, 0,
                Operation.Redis.parse("BLPOP blocklab:empty 0.05", 1));
        Step.Call get = new Step.Call("account", List.of("wait"), new Latency.Fixed(0), new Value.Constant(0L), 0, null, 0,
                Operation.Redis.parse("GET account:{row}", 1));
        return new Workload("redis-blpop", "BLPOP 50 ms then GET", new Graph(0L, List.of(wait, get)), new Arrival.Batch(40));
    }

    private static List<Table> tables(List<DatabaseRow> rows) {
        List<List<String>> sql = new ArrayList<>();
        List<List<String>> redis = new ArrayList<>();
        for (DatabaseRow r : rows) {
            if (r.part().startsWith("redis")) {
                redis.add(List.of(r.part(), r.model(), r.client(), String.valueOf(r.poolSize()),
                        r.offeredPerSecond() > 0 ? f0(r.offeredPerSecond() * r.commandsPerRequest()) : "batch",
                        f0(r.measuredPerSecond() * r.commandsPerRequest()), f1(r.measuredPerSecond()),
                        pct(r), f1(r.p50Millis()), f1(r.p99Millis()), f0(r.wallMillis()), f1(r.poolWaitP99Millis()),
                        String.valueOf(r.peakPlatformThreads())));
            } else {
                sql.add(List.of(r.part(), r.model(), r.client(), String.valueOf(r.poolSize()), f0(r.offeredPerSecond()),
                        f0(r.predictedPerSecond()), f1(r.measuredPerSecond()), pct(r), f0(r.p50Millis()), f0(r.p99Millis()),
                        f0(r.poolWaitMeanMillis()), f0(r.poolWaitP99Millis()), f1(r.predictedInUse()), String.valueOf(r.peakInUse()),
                        String.valueOf(r.failures()), String.valueOf(r.peakPlatformThreads())));
            }
        }
        List<Table> tables = new ArrayList<>();
        tables.add(new Table("PostgreSQL: select pg_sleep(0.1) at an open rate; the pool is the limit",
                List.of("part", "model", "client", "db pool", "offered req/s", "predicted req/s", "measured ok req/s", "ok %",
                        "p50 ms", "p99 ms", "pool wait mean ms", "pool wait p99 ms", "predicted conns in use", "peak conns in use",
                        "failed", "peak platform threads"), sql));
        if (!redis.isEmpty())
            tables.add(new Table("Redis: Jedis pool (blocking models) against one multiplexed Lettuce connection (non-blocking)",
                    List.of("part", "model", "client", "pool", "offered ops/s", "measured ops/s", "ok req/s", "ok %", "p50 ms",
                            "p99 ms", "wall ms", "pool wait p99 ms", "peak platform threads"), redis));
        return tables;
    }

    private static List<String> lessons(List<DatabaseRow> rows, double rate, long poolTimeoutNanos) {
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "Prediction (Little's law): N connections each held 100 ms serve at most N / 0.1 s = 10 N req/s; "
                + "offered %.0f req/s, so a pool of 10 serves 100 req/s whatever runs the requests; connections in use = min(N, rate x 0.1 s).", rate));
        notes.add("measured ok req/s = successful requests / wall time (first send to last completion, System.nanoTime); latency from each "
                + "request's intended send time (open model); pool wait = time from asking the pool for a connection to getting it, "
                + "measured by the lab around each call; peak conns in use counted by the lab (never above the pool).");
        notes.add(String.format(Locale.ROOT, "Pool wait timeout %.1f s (HikariCP connectionTimeout, Vert.x pool connectionTimeout, r2dbc-pool maxAcquireTime). "
                + "Admission: virtual threads and the non-blocking clients admit every request, so every request past the pool's capacity waits "
                + "at the pool and fails when the timeout comes first; fixed:10 (threads = connections) bounds admission, so the backlog "
                + "waits in the executor's queue instead (latency grows, the pool never times out); fixed:100 lets 90 threads wait at "
                + "the pool, about 90 x 100 ms / 10 = 0.9 s each, at the edge of the timeout.", poolTimeoutNanos / 1e9));
        for (DatabaseRow r : rows)
            r.failureCauses().forEach((cause, n) -> notes.add(r.model() + " (" + r.part()
                    + (r.part().contains("pool ") ? "" : ", pool " + r.poolSize()) + "): " + n + " x " + cause));   // a part may name its pool
        return notes;
    }

    private static String pct(DatabaseRow r) {
        return r.requests() == 0 ? "-" : String.format(Locale.ROOT, "%.1f", 100.0 * r.successes() / r.requests());
    }

    private static String f0(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v); }

    private static String f1(double v) { return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.1f", v); }
}
