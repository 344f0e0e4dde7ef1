package dev.blocklab.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The manifests round-trip through fabric8's typed model, and fabric8's mock Kubernetes API server (CRUD mode, on
 * 127.0.0.1) accepts them through fabric8's client; no real cluster is reachable here.
 */
@EnableKubernetesMockClient(crud = true)
class IndexedJobTest {
    static KubernetesClient client;
    static KubernetesMockServer server;

    private static final Instant START = Instant.parse("2026-11-23T18:00:00Z");

    private static IndexedJob job(String claim) {
        return new IndexedJob("load-test", "perf", "registry.example/blocklab:0.1.0", 4,
                List.of("http://target.perf.svc:8080/", "--rate", "8000/s", "--duration", "60s"), START, "1", "1Gi", claim);
    }

    @Test
    void attackJob_isAnIndexedJobWhosePodsRunTheirShardFromOneStart() {
        Job j = job(null).attackJob();
        assertThat(j.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(j.getSpec().getCompletions()).isEqualTo(4);
        assertThat(j.getSpec().getParallelism()).isEqualTo(4);
        assertThat(j.getSpec().getBackoffLimit()).isZero();
        var c = j.getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(c.getArgs()).containsExactly("attack", "http://target.perf.svc:8080/", "--rate", "8000/s", "--duration", "60s",
                "--shard", "$(JOB_COMPLETION_INDEX)/4", "--start-at", "2026-11-23T18:00:00Z", "--quiet");
        assertThat(c.getResources().getRequests().get("cpu").toString()).isEqualTo("1");
        assertThat(j.getSpec().getTemplate().getSpec().getRestartPolicy()).isEqualTo("Never");
    }

    @Test
    void yaml_roundTripsThroughTheTypedModel() {
        IndexedJob spec = job("blocklab-results");
        List<Job> jobs = List.of(spec.attackJob(), spec.mergeJob());
        String yaml = IndexedJob.yaml(jobs);
        assertThat(yaml).contains("completionMode: \"Indexed\"").contains("claimName: \"blocklab-results\"");
        KubernetesSerialization serialization = new KubernetesSerialization();
        List<HasMetadata> back = serialization.unmarshal(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
        assertThat(back).containsExactlyElementsOf(jobs);
        assertThat(((Job) back.get(1)).getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
                .containsExactly("report", "--merge", "/results/load-test", "--out", "/results/load-test/merged.txt");
        // the shards' logs are read by the pods' label: the merge's pod has its own, and no completion index
        var mergePod = spec.mergeJob().getSpec().getTemplate();
        assertThat(mergePod.getMetadata().getLabels()).containsExactly(java.util.Map.entry(IndexedJob.MERGE_LABEL, "load-test"));
        assertThat(mergePod.getSpec().getContainers().getFirst().getEnv()).isEmpty();
        assertThat(spec.attackJob().getSpec().getTemplate().getMetadata().getLabels()).containsEntry(IndexedJob.LABEL, "load-test");
        assertThat(spec.attackJob().getSpec().getTemplate().getSpec().getContainers().getFirst().getEnv())
                .extracting(e -> e.getName()).containsExactly("JOB_COMPLETION_INDEX");
        assertThat(spec.mergeJob().getMetadata().getLabels()).containsEntry(IndexedJob.LABEL, "load-test");   // deleted with the attack's
    }

    @Test
    void mockApiServer_acceptsTheManifests() {
        String yaml = IndexedJob.yaml(List.of(job("blocklab-results").attackJob(), job("blocklab-results").mergeJob()));
        List<HasMetadata> created = client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).create();
        assertThat(created).hasSize(2);
        Job stored = client.batch().v1().jobs().inNamespace("perf").withName("load-test").get();
        assertThat(stored).isNotNull();
        assertThat(stored.getSpec().getCompletionMode()).isEqualTo("Indexed");
        assertThat(stored.getSpec().getParallelism()).isEqualTo(4);
        assertThat(stored.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs()).contains("$(JOB_COMPLETION_INDEX)/4");
        assertThat(client.batch().v1().jobs().inNamespace("perf").withLabel(IndexedJob.LABEL, "load-test").list().getItems())
                .extracting(j -> j.getMetadata().getName()).containsExactlyInAnyOrder("load-test", "load-test-merge");
    }

    @Test
    void quantities_eachOfItsKind() {
        for (String[] ok : new String[][]{{"500m", "512Mi"}, {"0.5", "1G"}, {"2", "1500k"}, {"1.5", "1073741824"}, {"250m", "2Ti"}}) {
            var c = new IndexedJob("a", null, "i", 1, List.of(), START, ok[0], ok[1], null).attackJob()
                    .getSpec().getTemplate().getSpec().getContainers().getFirst();
            assertThat(c.getResources().getLimits().get("cpu").toString()).isEqualTo(ok[0]);
            assertThat(c.getResources().getLimits().get("memory").toString()).isEqualTo(ok[1]);
        }
    }

    @Test
    void badInput_isOneLineNamingTheFlag() {
        assertThatThrownBy(() -> new IndexedJob("Load_Test", null, "i", 1, List.of(), START, "1", "1Gi", null))
                .hasMessageStartingWith("--name: 'Load_Test' is not a DNS label");
        assertThatThrownBy(() -> new IndexedJob("a", null, "i", 1, List.of(), START, "lots", "1Gi", null))
                .hasMessage("--cpu: 'lots' is not a number of cores (e.g. 1, 0.5) or of millicores (e.g. 500m)");
        assertThatThrownBy(() -> new IndexedJob("a", null, "i", 1, List.of(), START, "-1", "1Gi", null))
                .hasMessage("--cpu: '-1' must be above zero");
        assertThatThrownBy(() -> new IndexedJob("a", null, "i", 1, List.of(), START, "1", "0", null))
                .hasMessage("--memory: '0' must be above zero");
        for (String cpu : List.of("1Gi", "2G", "1Ki", "500M"))
            assertThatThrownBy(() -> new IndexedJob("a", null, "i", 1, List.of(), START, cpu, "1Gi", null))
                    .as(cpu).hasMessageStartingWith("--cpu: '" + cpu + "' is not a number of cores");
        for (String memory : List.of("500m", "1K", "1GB", "1gi", "lots"))
            assertThatThrownBy(() -> new IndexedJob("a", null, "i", 1, List.of(), START, "1", memory, null))
                    .as(memory).hasMessage("--memory: '" + memory + "' is not a number of bytes, with Ki, Mi, Gi, Ti (powers of 1024) "
                            + "or k, M, G, T (powers of 1000), e.g. 512Mi, 1Gi; m would mean thousandths of a byte");
        assertThatThrownBy(() -> job(null).mergeJob()).hasMessageStartingWith("--merge-job needs --volume-claim");
        for (String ns : List.of("NS!", "Perf", "-perf", "perf-", "perf.team", "", "a".repeat(64)))
            assertThatThrownBy(() -> new IndexedJob("a", ns, "i", 1, List.of(), START, "1", "1Gi", null))
                    .as(ns).hasMessageStartingWith("--namespace: '" + ns + "' is not a Kubernetes namespace");
        for (String image : List.of("has space", "reg/blocklab:0.1\n", "\treg/blocklab"))
            assertThatThrownBy(() -> new IndexedJob("a", null, image, 1, List.of(), START, "1", "1Gi", null))
                    .as(image).hasMessageStartingWith("--image: '" + image + "' has whitespace in it");
    }

    @Test
    void namespace_anyRfc1123Label() {
        for (String ns : List.of("perf", "a", "load-test-2", "a".repeat(63)))
            assertThat(new IndexedJob("a", ns, "i", 1, List.of(), START, "1", "1Gi", null).attackJob().getMetadata().getNamespace()).isEqualTo(ns);
    }
}
