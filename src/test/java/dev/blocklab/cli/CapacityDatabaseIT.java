package dev.blocklab.cli;

import dev.blocklab.datastore.Datastores;
import dev.blocklab.datastore.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code blocklab capacity} and {@code advise} over a real PostgreSQL, end to end through {@code Main.execute}. */
class CapacityDatabaseIT {
    @TempDir Path dir;

    @Test
    void capacity_ofASlowQuery_isThePoolsCeiling_whateverTheModel() throws Exception {
        // 50 ms queries through 2 connections: at most 2 / 0.05 s = 40 req/s, though virtual names no limit of its own.
        // The search doubles 10, 20, 40, 80/s: the pool keeps up to 40/s at best, and 80/s grows a backlog.
        Path workload = Files.writeString(dir.resolve("q.yaml"), "arrival: {batch: 1}\nsteps:\n  - sql: q\n    query: \"select pg_sleep(0.05)\"\n");
        Datastores servers = TestServers.shared();
        Cli.Run r = Cli.run("capacity", "--workload", workload.toString(), "--postgres-url", servers.embeddedPostgres().orElseThrow().url(),
                "--db-pool", "2", "--entry", "virtual", "--slo", "p99<=2s", "--start-rate", "10/s", "--max-rate", "80/s",
                "--step", "1s", "--repeats", "1", "--bisections", "0", "--quiet", "--wide", "--save", dir.resolve("c.jsonl").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("db pool 2").contains("the db pool: 2 connections / 50 ms held per request = 40 req/s (its own formula names no limit)")
                .contains("broke: backlog grew").contains("--db-pool 2");
        assertThat(r.out().lines().filter(l -> l.matches("1 +virtual +(20|40) +40 +80 .*"))).as("sustained 20 or 40/s, predicted 40, broke at 80/s").hasSize(1);
        // the pool's figures at each rate measured: notes, and fields of the knee's runs in the saved row
        assertThat(r.out()).containsPattern("virtual at 80/s \\(broke\\): jdbc\\+hikari pool 2: \\d+ calls, \\d+ failed waits, 0 connect failures, peak 2 in use");
        var json = dev.blocklab.report.Jsons.mapper();
        var row = Files.readAllLines(dir.resolve("c.jsonl")).stream().map(l -> {
            try { return json.readTree(l); } catch (Exception e) { throw new AssertionError(e); }
        }).filter(n -> n.path("kind").asText().equals("capacity")).findFirst().orElseThrow();
        for (var point : row.get("knee")) {
            var pools = point.get("repeats").get(0).get("pools");
            assertThat(pools).as(point.toString()).hasSize(1);
            assertThat(pools.get(0).get("client").asText()).isEqualTo("jdbc+hikari");
            assertThat(pools.get(0).get("poolSize").asInt()).isEqualTo(2);
            assertThat(pools.get(0).get("connectFailures").asLong()).isZero();
        }
    }

    @Test
    void capacityAndAdvise_ofASqlWorkloadWithoutABackend_isOneLineNamingTheFlag() {
        for (String command : new String[]{"capacity", "advise"}) {
            Cli.Run r = Cli.run(command, "--workload", "examples/slow-query.yaml", "--entry", "virtual", "--quiet");
            assertThat(r.exit()).as(command).isEqualTo(2);
            assertThat(r.err().strip()).as(command).contains("step 'report' is a SQL step: add --backend postgres").doesNotContain("\n");
        }
    }
}
