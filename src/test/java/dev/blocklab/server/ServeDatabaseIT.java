package dev.blocklab.server;

import dev.blocklab.datastore.Datastores;
import dev.blocklab.datastore.TestServers;
import dev.blocklab.workload.WorkloadFile;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code serve} with a workload file over the real servers: /run answers from PostgreSQL and Redis. */
class ServeDatabaseIT {
    @Test
    void run_fileWorkloadOverRealServers_answersOverHttp_underBothKindsOfModel() throws Exception {
        Datastores servers = TestServers.shared();
        var page = WorkloadFile.load(java.nio.file.Path.of("examples/account-page.yaml"));
        var gets = WorkloadFile.load(java.nio.file.Path.of("examples/redis-gets.yaml"));
        try (BlocklabServer server = BlocklabServer.start(ServerSettings.of(0, ServerProfile.parse("virtual")),
                servers.newBackend(), List.of(page, gets));
             HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
            for (String model : List.of("virtual", "cf-nonblocking:2", "fixed:4")) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(server.uri() + "/run/account-page/" + model))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(model + ": " + r.body()).isEqualTo(200);
                assertThat(r.body()).as(model).matches("account-\\d+: 1 row touched, 3 offers\\s*");
                HttpResponse<String> g = client.send(HttpRequest.newBuilder(URI.create(server.uri() + "/run/redis-gets/" + model))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(g.statusCode()).as(model + ": " + g.body()).isEqualTo(200);
                assertThat(g.body()).as(model).startsWith("[account-").contains(", account-");
            }
        }
    }
}
