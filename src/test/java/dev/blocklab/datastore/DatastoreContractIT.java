package dev.blocklab.datastore;

import dev.blocklab.model.Model;
import dev.blocklab.model.ModelContext;
import dev.blocklab.model.Models;
import dev.blocklab.result.PoolStats;
import dev.blocklab.workload.Graph;
import dev.blocklab.workload.Latency;
import dev.blocklab.workload.Operation;
import dev.blocklab.workload.Request;
import dev.blocklab.workload.Step;
import dev.blocklab.workload.Value;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The model contract over the real servers: every registered model, given a graph of a SQL select and a Redis GET
 * on the request's row and a combine, gives each request the answer read from that row, through the client that
 * fits how it calls (blocking models: pgjdbc + HikariCP and Jedis; non-blocking: Vert.x and Lettuce).
 */
class DatastoreContractIT {
    static Stream<String> models() {
        return Models.catalog().stream().map(i -> i.needsSize() ? i.family() + ":4" : i.family());
    }

    static Graph graph() {
        Step.Call name = new Step.Call("name", List.of(), new Latency.Fixed(1_000_000), new Value.Constant(0L), 0, null, 0,
                new Operation.Sql("select name from blocklab_accounts where id = $1"));
        Step.Call cached = new Step.Call("cached", List.of(), new Latency.Fixed(1_000_000), new Value.Constant(0L), 0, null, 0,
                Operation.Redis.parse("GET account:{row}", 2));
        Step.Call balance = new Step.Call("balance", List.of("name"), new Latency.Fixed(1_000_000), new Value.Constant(0L), 0, null, 0,
                new Operation.Sql("select balance from blocklab_accounts where id = $1"));
        return new Graph(0L, List.of(name, cached, balance,
                new Step.Combine("page", List.of("name", "cached", "balance"), new Value.Format("{name} {cached} {balance}"))));
    }

    @ParameterizedTest @MethodSource("models")
    void everyModel_readsEachRequestsRow_throughTheClientThatFitsIt(String spec) throws Exception {
        dev.blocklab.model.ModelEntry info = Models.parse(spec).entry();
        assumeTrue(info.unavailable().isEmpty(), () -> spec + " unavailable");
        Datastores servers = TestServers.shared();
        int requests = 30;
        Graph graph = graph();
        List<Object> answers = new ArrayList<>();
        List<PoolStats> stats;
        try (DatastoreBackend backend = servers.newBackend(servers.settings());
             Model model = Models.create(spec, new ModelContext(backend, 8))) {
            List<CompletableFuture<Object>> futures = new ArrayList<>();
            for (int i = 995; i < 995 + requests; i++) futures.add(model.submit(new Request(i, graph, 7, 1)));
            for (CompletableFuture<Object> f : futures) answers.add(f.get(60, TimeUnit.SECONDS));
            stats = backend.poolStats();
        }
        for (int k = 0; k < requests; k++) {
            long row = Operation.row(995 + k);
            long next = row % Operation.ROWS + 1;
            assertThat(answers.get(k)).as(spec + " request " + (995 + k))
                    .isEqualTo("account-" + row + " [account-" + row + ", account-" + next + "] 1000");
        }
        List<String> clients = stats.stream().map(PoolStats::client).toList();
        if (spec.startsWith("cf-nonblocking"))
            assertThat(clients).containsExactly("vertx-pg", "lettuce (one shared connection)");
        else
            assertThat(clients).containsExactly("jdbc+hikari", "jedis");
        assertThat(stats.get(0).calls()).isEqualTo(2L * requests);          // two SQL steps per request
        assertThat(stats.get(0).peakInUse()).isBetween(1, servers.settings().dbPoolSize());
        assertThat(stats.get(1).calls()).isEqualTo(requests);               // one step (of two commands) per request
    }
}
