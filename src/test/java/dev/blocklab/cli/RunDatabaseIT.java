package dev.blocklab.cli;

import dev.blocklab.datastore.Datastores;
import dev.blocklab.datastore.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code blocklab run} over a real PostgreSQL and Redis, end to end through {@code Main.execute}. */
class RunDatabaseIT {
    @TempDir Path dir;

    private String[] out(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[]{String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void run_slowQueryExample_poolOfFiveBoundsTheBatch_underBothClients() {
        Datastores servers = TestServers.shared();
        String url = servers.embeddedPostgres().orElseThrow().url();
        String[] r = out("run", "--workload", "examples/slow-query.yaml", "--postgres-url", url, "--db-pool", "5",
                "--model", "virtual", "--model", "cf-nonblocking:2", "--requests", "20", "--repeats", "1", "--warmups", "0",
                "--quiet", "--save", dir.resolve("r.jsonl").toString());
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        // 20 queries of 100 ms through 5 connections: 4 waves, predicted 400 ms for both models
        assertThat(r[1]).contains("pool: ceil(20 / 5 connections) x 100 ms held")
                .contains("jdbc+hikari pool 5: 20 calls, 0 failed waits, 0 connect failures, peak 5 in use")
                .contains("vertx-pg pool 5: 20 calls, 0 failed waits, 0 connect failures, peak 5 in use")
                .contains("db pool 5")
                .doesNotContain("outlived the model");   // HikariCP, Vert.x and their threads closed with each run's backend
    }

    @Test
    void run_poolTooSmallForTheRate_theNoteComparesTheCeilingWithTheSuccessfulRate() {
        // 100 queries of 100 ms a second on 2 connections (20 req/s at most), 250 ms to wait for one: most fail
        Datastores servers = TestServers.shared();
        String url = servers.embeddedPostgres().orElseThrow().url();
        String[] r = out("run", "--workload", "examples/slow-query.yaml", "--postgres-url", url, "--db-pool", "2", "--pool-timeout", "250ms",
                "--model", "virtual", "--rate", "100/s", "--duration", "1s", "--repeats", "1", "--warmups", "0",
                "--quiet", "--wide", "--save", dir.resolve("r.jsonl").toString());
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        String joined = r[1].replace("\n  ", " ");
        assertThat(joined).contains("offered 100 req/s, so at most 20 req/s; measured ")
                .containsPattern("measured \\d+\\.\\d successful req/s \\(\\d+\\.\\d req/s completed, \\d+ of 100 failed\\)");
    }

    @Test
    void run_redisExample_answersUnderBothClients() {
        Datastores servers = TestServers.shared();
        String[] r = out("run", "--workload", "examples/redis-gets.yaml", "--redis-url", servers.embeddedRedis().orElseThrow().url(),
                "--model", "fixed:4", "--model", "cf-nonblocking:2", "--requests", "50", "--repeats", "1", "--warmups", "0",
                "--quiet", "--save", dir.resolve("r.jsonl").toString());
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[1]).contains("jedis pool 8: 50 calls").contains("lettuce (one shared connection): 50 calls")
                .doesNotContain("outlived the model");   // Jedis and Lettuce (its event loops) closed with each run's backend
    }

    @Test
    void run_redisExample_jsonRowsCarryThePoolOfTheClientEachModelUsed() throws Exception {
        Datastores servers = TestServers.shared();
        Path saved = dir.resolve("r.jsonl");
        String[] r = out("run", "--workload", "examples/redis-gets.yaml", "--redis-url", servers.embeddedRedis().orElseThrow().url(),
                "--redis-pool", "3", "--model", "fixed:4", "--model", "cf-nonblocking:2", "--requests", "30", "--repeats", "1",
                "--warmups", "0", "--quiet", "--format", "json", "--save", saved.toString());
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        var json = dev.blocklab.report.Jsons.mapper();
        var rows = json.readTree(r[1]).get("rows");
        // the blocking model used the Jedis pool only, the non-blocking one Lettuce's one connection only
        var blocking = rows.get(0).get("pools");
        assertThat(blocking).as(rows.get(0).toString()).hasSize(1);
        assertThat(blocking.get(0).get("client").asText()).isEqualTo("jedis");
        assertThat(blocking.get(0).get("poolSize").asInt()).isEqualTo(3);
        assertThat(blocking.get(0).get("calls").asLong()).isEqualTo(30);
        assertThat(blocking.get(0).get("failedWaits").asLong()).isZero();
        assertThat(blocking.get(0).get("connectFailures").asLong()).isZero();
        assertThat(blocking.get(0).get("peakInUse").asInt()).isBetween(1, 3);
        assertThat(blocking.get(0).get("p99WaitMillis").asDouble()).isGreaterThanOrEqualTo(blocking.get(0).get("meanWaitMillis").asDouble());
        var shared = rows.get(1).get("pools");
        assertThat(shared).hasSize(1);
        assertThat(shared.get(0).get("client").asText()).isEqualTo("lettuce (one shared connection)");
        assertThat(shared.get(0).get("poolSize").asInt()).isEqualTo(1);
        assertThat(shared.get(0).get("calls").asLong()).isEqualTo(30);
        // the notes say the same figures, from the same record
        var notes = json.readTree(r[1]).get("notes").toString();
        assertThat(notes).contains("fixed:4: jedis pool 3: 30 calls, 0 failed waits").contains("cf-nonblocking:2: lettuce (one shared connection): 30 calls");
        // the saved run line reads back as a run with them, and 'report' keeps them in its rows
        var line = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(java.nio.file.Files.readAllLines(saved).getFirst());
        line.remove("kind");
        var run = json.copy().disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .treeToValue(line, dev.blocklab.result.RunResult.class);
        assertThat(run.pools()).extracting(dev.blocklab.result.PoolStats::client, dev.blocklab.result.PoolStats::calls)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("jedis", 30L));
        var reported = out("report", saved.toString(), "--format", "json");
        assertThat(reported[0]).as(reported[2]).isEqualTo("0");
        assertThat(json.readTree(reported[1]).get("rows").get(1).get("pools").get(0).get("client").asText()).isEqualTo("lettuce (one shared connection)");
    }

    @Test
    void run_blpopExample_isBoundByTheJedisPool_orByLettucesOneConnection() {
        // 40 BLPOPs of 50 ms: a Jedis pool of 4 serves 4 at a time (10 waves, 500 ms); Lettuce's one connection answers in
        // order, one BLPOP after another (2,000 ms). The predictions said 250 and 50 ms, and were off by 2 x and 40 x.
        Datastores servers = TestServers.shared();
        String[] r = out("run", "--workload", "examples/redis-blpop.yaml", "--redis-url", servers.embeddedRedis().orElseThrow().url(),
                "--redis-pool", "4", "--model", "fixed:8", "--model", "cf-nonblocking:2", "--repeats", "1", "--warmups", "0",
                "--quiet", "--wide", "--save", dir.resolve("r.jsonl").toString());
        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[1]).contains("Jedis pool: ceil(40 / 4 connections) x 50 ms held (the model alone: ceil(40 / 8) x 50ms)")
                .contains("Lettuce's one connection: ceil(40 / 1 connection) x 50 ms held")
                .contains("Little's law for the Jedis pool: 4 connections / 50 ms held per request = 80 req/s")
                // the Jedis pool of 4 binds before the model's 8 threads: Little's law is held against it
                .contains("requests in flight against the jedis pool of 4 connections (fewer than the model's 8 threads)")
                .doesNotContain("against a pool of 8 threads");
        // measured against those: generous bounds on a shared machine, but far from the old predictions' 2 x and 40 x
        assertThat(r[1].lines().filter(l -> l.matches("(fixed:8|cf-nonblocking:2) +40 +100\\.00 +\\d+ +(500|2000) +(0\\.9\\d|1\\.[0-4]\\d) x.*")))
                .as(r[1]).hasSize(2);
    }

    @Test
    void run_redisKilledMidRun_countsConnectFailures_notFailedWaits_andStillReports() throws Exception {
        TestServers.assumeRedis();
        var killer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try (var redis = dev.blocklab.datastore.EmbeddedRedis.start()) {
            // 100 req/s for 3 s; the server dies once the run has made 500 GETs (25 requests), while it goes on
            killer.submit(() -> {
                try (var probe = new redis.clients.jedis.Jedis("127.0.0.1", redis.port())) {
                    for (int polls = 0; polls < 1_000; polls++) {   // at most 20 s
                        String stats = probe.info("commandstats");   // the keys are loaded with SETs first
                        if (stats.contains("cmdstat_get:") && Long.parseLong(
                                stats.replaceAll("(?s).*cmdstat_get:calls=(\\d+).*", "$1")) >= 500) break;
                        Thread.sleep(20);
                    }
                }
                redis.kill();
                return null;
            });
            Path saved = dir.resolve("r.jsonl");
            String[] r = out("run", "--workload", "examples/redis-gets.yaml", "--redis-url", redis.url(), "--redis-pool", "2",
                    "--model", "fixed:4", "--rate", "100/s", "--duration", "3s", "--repeats", "1", "--warmups", "0",
                    "--quiet", "--wide", "--save", saved.toString());
            assertThat(r[0]).as(r[2]).isEqualTo("0");
            // the server is the cause, not the pool: every call that got no connection is a connect failure
            assertThat(r[1]).as(r[1]).containsPattern("jedis pool 2: \\d+ calls, 0 failed waits, [1-9]\\d* connect failures")
                    .contains("connect failures: the server refused the connection or was gone (not the pool's size)")
                    .doesNotContain("failed waits: no connection came free");
            // the requests before the kill succeeded, those after failed, and the saved row says so
            var row = dev.blocklab.report.Jsons.mapper().readTree(java.nio.file.Files.readAllLines(saved).getFirst());
            assertThat(row.toString()).contains("\"client\":\"jedis\"");
            var pool = row.get("pools").get(0);
            assertThat(pool.get("failedWaits").asLong()).isZero();
            assertThat(pool.get("connectFailures").asLong()).isPositive();
        } finally {
            killer.shutdownNow();
        }
    }

    @Test
    void run_sqlWorkloadWithoutABackend_isOneLineNamingTheFlag() {
        String[] r = out("run", "--workload", "examples/slow-query.yaml", "--model", "virtual", "--quiet");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2].strip()).contains("step 'report' is a SQL step: add --backend postgres").doesNotContain("\n");
    }

    @Test
    void run_badPoolSize_isOneLineNamingTheFlag() {
        String[] r = out("run", "--workload", "examples/slow-query.yaml", "--model", "virtual", "--backend", "postgres", "--db-pool", "0", "--quiet");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains("--db-pool must be at least 1");
    }
}
